import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { MODES, type OwnerAccount } from './modes.ts';
import { SCREENSHOTS_DIR } from './paths.ts';

export interface VaultWorkerOptions {
  /** The owner the project's vault was started with (set per project in the config). */
  owner: OwnerAccount;
}

export interface VaultFixtures {
  /**
   * Saves a full-page screenshot (`fullPage: false`: the viewport only) to
   * test-results/screenshots/<project>-<name>.png and attaches it to the report.
   */
  snapshot: (name: string, options?: { fullPage?: boolean }) => Promise<void>;
  /**
   * Automatic: every test fails when a page of its browser context logs an
   * error or a Content-Security-Policy violation to the console, or throws.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: an automatic fixture that gives its tests no value is typed void (Playwright's convention).
  consoleGuard: void;
}

/**
 * The browser's own note for every answer with an error status ("Failed to
 * load resource: the server responded with a status of 401 (Unauthorized)").
 * Tests provoke such answers on purpose (a wrong password, an expired
 * session, a destroyed vault) and check how the page handles them; the line
 * reports the network, not a fault of the page, so it alone is let through.
 */
const RESPONSE_STATUS_NOTE = /^Failed to load resource: the server responded with a status of [45]\d\d\b/;

/**
 * Chromium cancels the requests in flight when the machine's network
 * interfaces change (another job adding a bridge or a veth pair, say) and
 * reports "net::ERR_NETWORK_CHANGED": the machine's doing, not the page's.
 */
const NETWORK_CHANGED_NOTE = /^Failed to load resource: net::ERR_NETWORK_CHANGED$/;

/**
 * Collects what a context's pages report as problems: console errors, any
 * console line about the Content Security Policy (a violation), and uncaught
 * exceptions. Tests that open a context of their own watch it with this too.
 */
export function watchConsole(context: BrowserContext): string[] {
  const problems: string[] = [];
  context.on('console', (message) => {
    const text = message.text();
    const csp = /Content[- ]Security[- ]Policy/i.test(text);
    if (message.type() !== 'error' && !csp) return;
    if (!csp && (RESPONSE_STATUS_NOTE.test(text) || NETWORK_CHANGED_NOTE.test(text))) return;
    const { url, lineNumber } = message.location();
    problems.push(`console ${message.type()}: ${text}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  context.on('weberror', (error) => problems.push(`uncaught: ${error.error().message}`));
  return problems;
}

export const test = base.extend<VaultFixtures, VaultWorkerOptions>({
  owner: [MODES.embedded.owner, { option: true, scope: 'worker' }],
  consoleGuard: [
    async ({ context }, use) => {
      const problems = watchConsole(context);
      await use();
      expect(problems, 'the browser console during the test').toEqual([]);
    },
    { auto: true },
  ],
  snapshot: async ({ page }, use, testInfo) => {
    await use(async (name, options) => {
      const path = join(SCREENSHOTS_DIR, `${testInfo.project.name}-${name}.png`);
      await page.screenshot({ path, fullPage: options?.fullPage ?? true, animations: 'disabled' });
      await testInfo.attach(name, { path, contentType: 'image/png' });
    });
  },
});

export { expect };

/** The live region that holds the (single) current toast. */
export function toasts(page: Page): Locator {
  return page.getByRole('status', { name: 'Notifications' });
}

/** The panel (section) headed by `title`, e.g. "Active Targets". */
export function panel(page: Page, title: string): Locator {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** "{name}'s VAULT", the title of the login screen and of the header. */
export function vaultTitle(owner: OwnerAccount): string {
  return `${owner.name}'s VAULT`;
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, owner: OwnerAccount): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
  await page.getByPlaceholder('Enter password').fill(owner.password);
  await page.getByRole('button', { name: 'SECURE ACCESS' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'COMMAND CENTER' })).toBeVisible();
}

/**
 * Signs in through the login API (the form has its own tests) and opens `path`:
 * one page load instead of signIn's two, for tests about the screens behind the login.
 */
export async function signInByApi(page: Page, owner: OwnerAccount, path = '/'): Promise<void> {
  const response = await page.request.post('/api/login', { data: { username: owner.username, password: owner.password } });
  expect(response.status(), 'POST /api/login').toBe(200);
  await page.goto(path);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeAttached();
}
