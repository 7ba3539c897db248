// End-to-end tests: Debian's Chromium against a fresh embedded vault and a
// fresh distributed vault (see support/stacks.ts). Run from the repository root:
//   npx playwright test -c apps/e2e/playwright.config.ts [--project embedded|distributed]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { VaultWorkerOptions } from './support/fixtures.ts';
import { MODES, baseURL } from './support/modes.ts';
import { E2E_DIR, RESULTS_DIR, RESULTS_JSON } from './support/paths.ts';

// Never download a browser: the system's Chromium is the only one used.
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  throw new Error(`${CHROMIUM} is missing. The end-to-end tests use Debian's Chromium only (apt-get install chromium); no browser is downloaded.`);
}

export default defineConfig<Record<never, never>, VaultWorkerOptions>({
  testDir: join(E2E_DIR, 'tests'),
  outputDir: RESULTS_DIR,
  globalSetup: join(E2E_DIR, 'support/global-setup.ts'),
  fullyParallel: false,
  // The two modes at once, each in one worker: a mode's tests share its vault (and its private
  // vaults' ports), so within a mode they run one at a time, in file order.
  workers: 2,
  // One retry in CI: on a loaded 2-core machine a walk through seven screens can
  // overrun; Playwright reports a retried pass as "flaky", so it stays visible.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  timeout: 60_000,
  // Two shared vaults and, per mode, two private ones (support/private-vault.ts:
  // a vault filled with data, a vault destroyed), 54 browser tests, on a shared
  // 2-core machine that CI also uses to build the server images in the
  // background: generous, still bounded.
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: RESULTS_JSON }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    // The header's pulsing "secure connection" dot repeats forever: Chromium
    // draws a frame for it 60 times a second in every open page, a share of a
    // core taken from the tests. The app's reduced-motion rule plays it once.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
    screenshot: 'only-on-failure',
    // A trace records a screencast of the page all along (Chromium composites
    // and encodes every frame): kept for every test, it cost each run a core's
    // third in Chromium's GPU process. A failed test's retry records one.
    trace: 'on-first-retry',
  },
  projects: [
    {
      name: MODES.embedded.name,
      workers: 1,
      use: { baseURL: baseURL(MODES.embedded), owner: MODES.embedded.owner },
    },
    {
      name: MODES.distributed.name,
      workers: 1,
      use: { baseURL: baseURL(MODES.distributed), owner: MODES.distributed.owner },
    },
  ],
});
