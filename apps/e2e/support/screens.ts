import { SIGNED_IN_SCREENS } from '../../web/src/screens/signed-in-screens.ts';

/** The heading each signed-in screen shows (spec section 2.1), by its path. */
const TITLES: Record<string, string> = {
  '/': 'COMMAND CENTER',
  '/weekly-schedule': 'WEEKLY SCHEDULE TEMPLATES',
  '/journal': 'Intelligence Vault',
  '/targets': 'Target Elimination System',
  '/bonaparte': 'BONAPARTE',
  '/logs': 'LOGS',
  '/studies-archive': 'STUDIES ARCHIVE',
};

/**
 * Every signed-in screen of the web app's one table (signed-in-screens.ts), in
 * its order: its path, its navigation label if it has one, and its heading. A
 * screen added there without a heading here fails every test that walks them.
 */
export const SCREENS = SIGNED_IN_SCREENS.map(({ path, nav }) => {
  const title = TITLES[path];
  if (!title) throw new Error(`apps/e2e/support/screens.ts: no heading for ${path}, a screen of apps/web/src/screens/signed-in-screens.ts`);
  return { path, nav, title };
});

/** The screens the header's navigation opens, with their labels. */
export const NAVIGATION = SCREENS.flatMap(({ path, nav, title }) => (nav ? [{ path, label: nav, title }] : []));
