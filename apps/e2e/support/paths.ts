import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/e2e, whatever the working directory of the run. */
export const E2E_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The repository root. */
export const ROOT_DIR = join(E2E_DIR, '..', '..');
/** Playwright's output folder; cleared at the start of every run (VAULT_E2E_RESULTS_DIR: another, for a second run beside the first). */
export const RESULTS_DIR = process.env.VAULT_E2E_RESULTS_DIR ?? join(E2E_DIR, 'test-results');
/** Read by scripts/test.mjs for the totals: keep this path. */
export const RESULTS_JSON = join(RESULTS_DIR, 'results.json');
export const SCREENSHOTS_DIR = join(RESULTS_DIR, 'screenshots');
/** Output of the servers started for the run, one file per process. */
export const SERVER_LOGS_DIR = join(RESULTS_DIR, 'servers');
