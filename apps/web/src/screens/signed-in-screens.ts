import { HTTP_ROUTES as API } from '@vault/contracts';

/**
 * The one table of signed-in screens (spec section 2.1): adding a screen is a
 * line here and its module. Plain data, read by
 * - the routes and the preload at sign-in (screen-loaders.ts: the module is
 *   loaded on demand, once, whichever asks first);
 * - the header's navigation (a screen with a `nav` label);
 * - the build (vite.config.ts turns each module into its chunk files in
 *   route-hints.json) and the gateway, which names them and the first reads in
 *   the page it serves for that path, so that a reload or a bookmark does not
 *   wait for the app's main script before fetching them.
 * A test keeps it true to the screens.
 */
export interface SignedInScreenEntry {
  path: string;
  /** The screen's module, from apps/web (its default export is the screen). */
  module: string;
  /** Its label in the navigation; none for a screen reached from another one. */
  nav?: string;
  /**
   * GET URLs the screen requests as it first renders, exactly as it requests
   * them (paths from the API's route table). Reads that depend on the
   * browser's date or time zone (today's schedule and weekday) are left out:
   * the server cannot know them.
   */
  reads: string[];
}

/** Loaded by every signed-in screen: the header, navigation and routes. */
export const SIGNED_IN_SHELL_MODULE = 'src/screens/authenticated-app.tsx';

export const SIGNED_IN_SCREENS: readonly SignedInScreenEntry[] = [
  {
    path: '/',
    module: 'src/screens/dashboard.tsx',
    nav: 'COMMAND CENTER',
    reads: [API.journalCount.path, API.targets.path, API.studies.path, API.activities.path],
  },
  { path: '/weekly-schedule', module: 'src/screens/weekly-schedule.tsx', nav: 'SCHEDULE', reads: [API.weeklyTemplates.path] },
  { path: '/journal', module: 'src/screens/journal.tsx', nav: 'INTEL VAULT', reads: [`${API.journal.path}?limit=50&offset=0`, API.photos.path] },
  { path: '/targets', module: 'src/screens/targets.tsx', nav: 'TARGETS', reads: [API.targets.path] },
  { path: '/bonaparte', module: 'src/screens/bonaparte.tsx', nav: 'BONAPARTE', reads: [API.balance.path] },
  { path: '/logs', module: 'src/screens/logs.tsx', nav: 'LOGS', reads: [API.logs.path] },
  // Reached from the command center's studies.
  { path: '/studies-archive', module: 'src/screens/studies-archive.tsx', reads: [API.completedStudies.path] },
];

/** What the build turns into route-hints.json: each screen's module and first reads, by path. */
export type ScreenHint = Pick<SignedInScreenEntry, 'module' | 'reads'>;

export const screenHints: Record<string, ScreenHint> = Object.fromEntries(SIGNED_IN_SCREENS.map(({ path, module, reads }) => [path, { module, reads }]));
