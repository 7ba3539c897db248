/**
 * What the page itself can start fetching when a signed-in owner opens a
 * screen's address directly (a reload, a bookmark): the screen's code and the
 * reads its first render makes, so that neither waits for the app's main
 * script to run first. Plain data, read by the build (vite.config.ts turns the
 * modules into chunk files in route-hints.json) and by the gateway (which names
 * them in the page it serves for that path). A test keeps it true to the
 * screens. Reads that depend on the browser's date or time zone (today's
 * schedule and weekday) are left out: the server cannot know them.
 */
export interface ScreenHint {
  /** The screen's module, from apps/web (the one its route loads). */
  module: string;
  /** GET URLs the screen requests as it first renders, exactly as it requests them. */
  reads: string[];
}

/** Loaded by every signed-in screen: the header, navigation and routes. */
export const SIGNED_IN_SHELL_MODULE = 'src/screens/authenticated-app.tsx';

export const screenHints: Record<string, ScreenHint> = {
  '/': { module: 'src/screens/dashboard.tsx', reads: ['/api/journal/count', '/api/targets', '/api/studies', '/api/activities'] },
  '/weekly-schedule': { module: 'src/screens/weekly-schedule.tsx', reads: ['/api/weekly-templates'] },
  '/journal': { module: 'src/screens/journal.tsx', reads: ['/api/journal?limit=50&offset=0', '/api/photos'] },
  '/targets': { module: 'src/screens/targets.tsx', reads: ['/api/targets'] },
  '/bonaparte': { module: 'src/screens/bonaparte.tsx', reads: ['/api/bonaparte/balance'] },
  '/logs': { module: 'src/screens/logs.tsx', reads: ['/api/logs'] },
  '/studies-archive': { module: 'src/screens/studies-archive.tsx', reads: ['/api/studies/completed'] },
};
