// Issue 36: the vault as an app installed on a phone. The manifest makes it
// installable; the service worker keeps the built shell and nothing of the
// vault; sign-out leaves nothing on the device; offline, the app says VAULT
// UNREACHABLE in its own look. A vault of its own: the test uploads a photo
// and exports the vault, which the shared vaults' tests must not see.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type TestInfo } from '@playwright/test';
import { expect, panel, signIn, toasts, watchConsole } from '../support/fixtures.ts';
import { ROOT_DIR, SCREENSHOTS_DIR } from '../support/paths.ts';
import { SCREENS } from '../support/screens.ts';
import { withPrivateVault } from '../support/private-vault.ts';

const OWNER = { name: 'Selina Kyle', username: 'selina', password: 'Gotham-e2e-6%k' };
const test = withPrivateVault(OWNER, { embedded: 3351, distributed: 3352 });

const PHONE = { width: 375, height: 812 };
/** index.html's theme-color: the manifest's colours must be the same, or the splash screen flashes another. */
const THEME = '#060913';

/** The shell's files as the worker may keep them: the build's own, never an answer of the vault's. */
const SHELL_FILE = /^\/(?:index\.html|manifest\.webmanifest|favicon\.svg|icons\/[\w-]+\.png|assets\/[\w.-]+\.(?:js|css|woff2))$/;
/** The vault's answers: the API (exports among them) and the photos. */
const VAULT_ANSWER = /^\/(?:api|objects)\//;

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1'), 'a PNG').toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Resolves once the page's origin has an activated worker, whose install (the whole shell cached) is then done. */
async function workerActivated(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 20_000 })
    .toBe('activated');
}

/** Every URL path in the page's CacheStorage, cache by cache. */
function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname + new URL(request.url).search);
    }
    return paths;
  });
}

/** What the page's origin keeps on the device. */
function pageStorage(page: Page) {
  return page.evaluate(async () => ({
    caches: await caches.keys(),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    indexedDB: (await indexedDB.databases()).map((database) => database.name),
  }));
}

/** A viewport screenshot in test-results/screenshots/<project>-installed-app-<name>.png (copied to docs/screens by hand). */
async function installedSnapshot(page: Page, testInfo: TestInfo, name: string) {
  const path = join(SCREENSHOTS_DIR, `${testInfo.project.name}-installed-app-${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(`installed-app-${name}`, { path, contentType: 'image/png' });
}

/** The browser's own notes for requests made with the network off: the offline test provokes them on purpose. */
const OFFLINE_NOTE = /net::ERR_INTERNET_DISCONNECTED/;

/**
 * A phone's window, as the installed app fills it (no address bar). Chromium
 * cannot be told it is installed (headless, `display-mode` is not among the
 * media features it emulates, and a real install writes shortcuts into the
 * machine's home folder), and the app has no style of its own for that mode:
 * the safe-area insets it adds are zero on a screen without a notch.
 */
const INSTALLED_PHONE = { viewport: PHONE, isMobile: true, hasTouch: true } as const;

/** A context of the test's own, whose console problems are checked here, less the offline notes. */
async function ownContext(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce', ...INSTALLED_PHONE });
  const problems = watchConsole(context);
  return { context, problems: () => problems.filter((problem) => !OFFLINE_NOTE.test(problem)) };
}

async function logout(page: Page) {
  page.once('dialog', (dialog) => void dialog.accept());
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/logout');
  await page.getByRole('button', { name: 'Logout' }).click();
  const logoutAnswer = await answer;
  await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
  return logoutAnswer;
}

test.describe('installable app', () => {
  test('the manifest is valid, its icons are the sizes it says, and Chromium finds the app installable', async ({ launchOptions, baseURL }) => {
    // A profile on disk: Chromium installs no app from an incognito profile, which a test's context is.
    const profile = mkdtempSync(join(tmpdir(), 'vault-e2e-installable-'));
    const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, reducedMotion: 'reduce' });
    const problems = watchConsole(context);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
      await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', THEME);
      await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /viewport-fit=cover/);

      const cdp = await context.newCDPSession(page);
      const { url, errors, data } = await cdp.send('Page.getAppManifest');
      expect(new URL(url).pathname).toBe('/manifest.webmanifest');
      expect(errors, 'the manifest parser’s complaints').toEqual([]);
      const manifest = JSON.parse(data ?? '{}') as Record<string, unknown> & { icons: ManifestIcon[] };
      expect(manifest).toMatchObject({
        name: 'VAULT',
        short_name: 'VAULT',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME,
        background_color: THEME,
      });
      expect(manifest.description).toEqual(expect.any(String));

      for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
        const answer = await page.request.get(icon.src);
        expect([icon.src, answer.status(), answer.headers()['content-type']]).toEqual([icon.src, 200, 'image/png']);
        expect([icon.src, pngSize(await answer.body())]).toEqual([icon.src, icon.sizes]);
      }
      const sizes = (purpose: string) => manifest.icons.filter((i) => (i.purpose ?? 'any').split(' ').includes(purpose)).map((i) => i.sizes);
      expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(sizes('maskable')).toContain('512x512');

      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
      expect(problems, 'the browser console').toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test('signed in, on every screen, with a photo and an export: the worker keeps the shell only, and the vault’s answers said no-store', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const answers: { path: string; cacheControl: string | undefined; fromWorker: boolean }[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (VAULT_ANSWER.test(path)) answers.push({ path, cacheControl: response.headers()['cache-control'], fromWorker: response.fromServiceWorker() });
    });

    await signIn(page, OWNER);
    await workerActivated(page);
    const worker = await page.request.get('/sw.js');
    expect([worker.status(), worker.headers()['cache-control'], worker.headers()['content-type']]).toEqual([200, 'no-cache', 'text/javascript; charset=utf-8']);

    // Each screen loaded as a page, so that the worker (network first) hands it over.
    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible();
    }
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), 'the page is the worker’s').toMatch(/\/sw\.js$/);

    // A photo: uploaded, then shown (GET /objects/photos/<id>).
    await page.goto('/journal');
    const photoShown = page.waitForResponse((response) => /^\/objects\/photos\//.test(new URL(response.url()).pathname) && response.ok());
    await panel(page, 'SECURE PHOTO VAULT').getByRole('button', { name: 'Upload Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'UPLOAD PHOTO' });
    await dialog.getByLabel('Image file').setInputFiles({
      name: `installed-${testInfo.project.name}.png`,
      mimeType: 'image/png',
      buffer: readFileSync(join(ROOT_DIR, 'apps/web/public/icons/vault-192.png')),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(toasts(page)).toContainText('Photo Uploaded');
    await photoShown;

    // An export, from the settings panel.
    await page.getByRole('button', { name: 'SETTINGS' }).click();
    const settings = page.getByRole('dialog', { name: 'VAULT SETTINGS' });
    await settings.locator('summary', { hasText: 'EXPORT VAULT' }).click();
    await settings.getByLabel('Owner password').fill(OWNER.password);
    const exported = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/settings/export');
    await settings.getByRole('button', { name: 'EXPORT VAULT' }).click();
    expect((await exported).status()).toBe(200);
    await expect(toasts(page)).toContainText('Vault Exported');

    const cached = await cachedPaths(page);
    expect(cached, 'the shell: the page and the entry script at least').toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest']));
    expect(cached.some((path) => /^\/assets\/.+\.js$/.test(path))).toBe(true);
    expect(
      cached.filter((path) => !SHELL_FILE.test(path)),
      'cached entries that are not the shell',
    ).toEqual([]);

    expect(answers.map((answer) => answer.path)).toEqual(expect.arrayContaining(['/api/user', '/api/settings/export']));
    expect(answers.some((answer) => answer.path.startsWith('/objects/photos/'))).toBe(true);
    expect(
      answers.filter((answer) => answer.cacheControl !== 'no-store' || answer.fromWorker),
      'vault answers without no-store, or answered by the worker',
    ).toEqual([]);
  });

  test('signing out leaves nothing on the device: no caches, no worker, no storage', async ({ page }) => {
    await signIn(page, OWNER);
    await workerActivated(page);
    // Something in every kind of storage: a draft (the app's own), and the rest as another script could leave it.
    await page.goto('/journal');
    await panel(page, 'NEW INTELLIGENCE').getByLabel('Intelligence').fill('Half a report, kept as a draft');
    await page.evaluate(async () => {
      sessionStorage.setItem('installed-app-probe', '1');
      await new Promise((resolve, reject) => {
        const opening = indexedDB.open('installed-app-probe');
        opening.onsuccess = () => resolve(opening.result.close());
        opening.onerror = () => reject(opening.error);
      });
    });
    const before = await pageStorage(page);
    expect(before.caches.length).toBeGreaterThan(0);
    expect(before.workers).toBe(1);
    expect(before.localStorage.some((key) => key.startsWith('vault.draft.'))).toBe(true);
    expect(before.sessionStorage).toContain('installed-app-probe');
    expect(before.indexedDB).toContain('installed-app-probe');

    const answer = await logout(page);
    // allHeaders: Chromium's first report of an answer leaves this header out.
    expect((await answer.allHeaders())['clear-site-data']).toBe('"cache", "storage"');
    expect(await pageStorage(page)).toEqual({ caches: [], workers: 0, localStorage: [], sessionStorage: [], indexedDB: [] });
  });

  test('offline, the installed app opens from its shell and says VAULT UNREACHABLE; RETRY once online brings the vault back', async ({
    browser,
    baseURL,
  }, testInfo) => {
    const { context, problems } = await ownContext(browser, baseURL);
    const page = await context.newPage();
    try {
      await signIn(page, OWNER);
      await workerActivated(page);

      await context.setOffline(true);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'VAULT UNREACHABLE' })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText('The vault did not answer');
      await installedSnapshot(page, testInfo, 'unreachable');

      // Still offline: RETRY tries and says the same.
      await page.getByRole('button', { name: 'RETRY' }).click();
      await expect(page.getByRole('button', { name: 'RETRY' })).toBeEnabled();
      await expect(page.getByRole('heading', { level: 1, name: 'VAULT UNREACHABLE' })).toBeVisible();

      await context.setOffline(false);
      await page.getByRole('button', { name: 'RETRY' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'COMMAND CENTER' })).toBeVisible();
      expect(problems(), 'the browser console, less the offline notes').toEqual([]);
    } finally {
      await context.close();
    }
  });

  test.describe('on a phone', () => {
    test.use(INSTALLED_PHONE);

    test('at 375 px as the installed app shows them: the login, the dashboard, the menu and the journal', async ({ page }, testInfo) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
      await installedSnapshot(page, testInfo, 'login');

      await signIn(page, OWNER);
      await expect(page.getByText('SECURE CONNECTION', { exact: true })).toBeVisible();
      await installedSnapshot(page, testInfo, 'dashboard');

      await page.getByRole('button', { name: 'Open navigation menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
      await installedSnapshot(page, testInfo, 'menu');

      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'INTEL VAULT', exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Intelligence Vault' })).toBeVisible();
      // Photos come from the network each time (no-store): the picture waits for those in view (an earlier test uploaded one).
      const photos = page.getByRole('list', { name: 'Photos' }).getByRole('img');
      await expect
        .poll(() =>
          photos.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0)),
        )
        .toBe(true);
      await installedSnapshot(page, testInfo, 'journal');

      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(innerWidth);
    });
  });
});
