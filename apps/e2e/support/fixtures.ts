import { join } from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { MODES, type OwnerAccount } from './modes.ts';
import { SCREENSHOTS_DIR } from './paths.ts';

export interface VaultWorkerOptions {
  /** The owner the project's vault was started with (set per project in the config). */
  owner: OwnerAccount;
}

export interface VaultFixtures {
  /** Saves a full-page screenshot to test-results/screenshots/<project>-<name>.png and attaches it to the report. */
  snapshot: (name: string) => Promise<void>;
}

export const test = base.extend<VaultFixtures, VaultWorkerOptions>({
  owner: [MODES.embedded.owner, { option: true, scope: 'worker' }],
  snapshot: async ({ page }, use, testInfo) => {
    await use(async (name) => {
      const path = join(SCREENSHOTS_DIR, `${testInfo.project.name}-${name}.png`);
      await page.screenshot({ path, fullPage: true, animations: 'disabled' });
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
