// Spec 2.1 (routes), 2.3 (header), 2.4 (settings panel) and 9 (clock, breakpoint):
// the signed-in shell around every screen.
import { join } from 'node:path';
import type { Page, Request, TestInfo } from '@playwright/test';
import { expect, panel, signIn, test, toasts, vaultTitle } from '../support/fixtures.ts';
import { SCREENSHOTS_DIR } from '../support/paths.ts';
import { NAVIGATION as ROUTES } from '../support/screens.ts';

const FINAL_WARNING =
  'FINAL WARNING: This will permanently erase ALL data including journal entries, targets, schedules, and photos. This action cannot be undone. Proceed with Perfect Cell?';
const GLOBAL_ACCESS_CONFIRM = 'Enable global access? This will allow anyone to access the entire site without authentication.';

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

function settingsPanel(page: Page) {
  return page.getByRole('dialog', { name: 'VAULT SETTINGS' });
}

/** Requests the page makes to a settings endpoint (none may reach the shared vault unasked). */
function watchSettingsCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/settings/')) calls.push(request);
  });
  return calls;
}

/**
 * A screenshot of the viewport only. Chromium's full-page capture shrinks the
 * viewport for a moment, which the header reads as "mobile" and so drops the
 * settings dropdown; an open panel is captured this way instead.
 */
async function viewportSnapshot(page: Page, testInfo: TestInfo, name: string) {
  const path = join(SCREENSHOTS_DIR, `${testInfo.project.name}-${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('shell', () => {
  test('signed out, only / is offered: the login screen; /journal is not found', async ({ page, owner, snapshot }) => {
    await page.goto('/journal');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expect(mainNav(page)).toHaveCount(0);

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(vaultTitle(owner));
    await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
    await expect(mainNav(page)).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await snapshot('shell-login');
  });

  test('signed in, each navigation button opens its screen and is highlighted', async ({ page, owner, snapshot }) => {
    await signIn(page, owner);
    const nav = mainNav(page);
    await expect(page.getByText(vaultTitle(owner), { exact: true })).toBeVisible();

    // The dashboard's frame: the stat row and its six cards.
    for (const text of ['Journal Entries', 'Targets Eliminated']) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    for (const card of ['MISSION SCHEDULE', 'TARGETS', 'INTELLIGENCE LOG', "TODAY'S STUDIES", 'MISSION GENERATOR', 'MISSION LOG']) {
      await expect(panel(page, card)).toBeVisible();
    }
    await expectNoHorizontalOverflow(page);
    await snapshot('shell-dashboard');

    // Start away from the dashboard so that every button is clicked, the first one included.
    for (const route of [...ROUTES.slice(1), ROUTES[0]]) {
      await nav.getByRole('link', { name: route.label, exact: true }).click();
      await expect(page).toHaveURL(route.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.title);
      for (const other of ROUTES) {
        const link = nav.getByRole('link', { name: other.label, exact: true });
        if (other.label === route.label) await expect(link).toHaveAttribute('aria-current', 'page');
        else await expect(link).not.toHaveAttribute('aria-current', 'page');
      }
    }

    // The studies archive is opened from the dashboard's studies card, not from the navigation.
    await panel(page, "TODAY'S STUDIES").getByRole('link', { name: 'Archive' }).click();
    await expect(page).toHaveURL('/studies-archive');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('STUDIES ARCHIVE');
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);

    // A deep link still works after a reload, and an unknown path is not found.
    await page.goto('/logs');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('LOGS');
    await expect(page.getByText('Access Attempt Monitoring System', { exact: true })).toBeVisible();
    await page.goto('/no-such-screen');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  });

  test('the header clock shows 24-hour time and advances every second', async ({ page, owner }) => {
    await signIn(page, owner);
    await expect(page.getByText('SECURE CONNECTION', { exact: true })).toBeVisible();
    const clock = page.getByTestId('header-clock');
    await expect(clock).toHaveText(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    const first = await clock.innerText();
    await expect(clock).not.toHaveText(first, { timeout: 2500 });
    const second = await clock.innerText();
    await expect(clock).not.toHaveText(second, { timeout: 2500 });
  });

  test('under 768 px the navigation sits behind a toggle and there is no settings dropdown', async ({ page, owner, snapshot }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signIn(page, owner);
    const nav = mainNav(page);
    const toggle = page.getByRole('button', { name: 'Open navigation menu' });

    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await expect(page.getByRole('button', { name: 'SETTINGS' })).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await snapshot('shell-dashboard-375');

    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close navigation menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snapshot('shell-menu-375');
    await nav.getByRole('link', { name: 'TARGETS', exact: true }).click();
    await expect(page).toHaveURL('/targets');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Target Elimination System');
    // Navigating closes the menu again.
    await expect(nav).toBeHidden();

    // The same session at 1440 px: the navigation is in view and the settings dropdown is offered.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open navigation menu' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'SETTINGS' })).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
  });

  test('logout asks "Terminate secure session?": dismissing keeps the session, accepting ends it', async ({ page, owner }) => {
    await signIn(page, owner);
    const messages: string[] = [];

    page.once('dialog', (dialog) => {
      messages.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => messages).toEqual(['Terminate secure session?']);
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('COMMAND CENTER');
    expect((await page.request.get('/api/user')).status()).toBe(200);

    page.once('dialog', (dialog) => {
      messages.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(vaultTitle(owner));
    expect(messages).toEqual(['Terminate secure session?', 'Terminate secure session?']);
    expect((await page.request.get('/api/user')).status()).toBe(401);
  });

  test('PERFECT CELL arms, disarms on an outside click, and a dismissed final warning calls nothing', async ({ page, owner }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner);
    const calls = watchSettingsCalls(page);
    const settings = page.getByRole('button', { name: 'SETTINGS' });

    await settings.click();
    const dialog = settingsPanel(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Makes all personal data publicly accessible', { exact: true })).toBeVisible();
    await expect(dialog.getByText('DANGER: Irreversible data deletion', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'ACTIVATE' })).toBeVisible();

    // Arm, then click outside: the panel closes and reopens disarmed.
    await dialog.getByRole('button', { name: 'INITIATE' }).click();
    await expect(dialog.getByText('CONFIRMATION: Click again to execute.', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'CONFIRM' })).toBeVisible();
    await viewportSnapshot(page, testInfo, 'shell-settings-armed');
    await expect(dialog.getByRole('button', { name: 'CONFIRM' })).toBeVisible();
    await page.getByRole('heading', { level: 1 }).click();
    await expect(dialog).toBeHidden();
    await settings.click();
    await expect(dialog.getByRole('button', { name: 'INITIATE' })).toBeVisible();
    await expect(dialog.getByText('CONFIRMATION: Click again to execute.', { exact: true })).toHaveCount(0);

    // Arm, CONFIRM, dismiss the final warning: no call, back to INITIATE.
    await dialog.getByRole('button', { name: 'INITIATE' }).click();
    const warnings: string[] = [];
    page.once('dialog', (d) => {
      warnings.push(d.message());
      void d.dismiss();
    });
    await dialog.getByRole('button', { name: 'CONFIRM' }).click();
    await expect.poll(() => warnings).toEqual([FINAL_WARNING]);
    await expect(dialog.getByRole('button', { name: 'INITIATE' })).toBeVisible();

    // TO THE MOON: a dismissed confirm calls nothing either.
    const prompts: string[] = [];
    page.once('dialog', (d) => {
      prompts.push(d.message());
      void d.dismiss();
    });
    await dialog.getByRole('button', { name: 'ACTIVATE' }).click();
    await expect.poll(() => prompts).toEqual([GLOBAL_ACCESS_CONFIRM]);
    await expect(dialog.getByRole('button', { name: 'ACTIVATE' })).toBeEnabled();

    // Escape closes the panel too.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(calls.map((c) => `${c.method()} ${new URL(c.url()).pathname}`)).toEqual([]);
  });

  test('a refused settings call shows its failure toast (answers stubbed in the browser)', async ({ page, owner }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner);
    // Stubbed here so that the shared vault of this run is never opened up or erased.
    const reached: string[] = [];
    await page.route('**/api/settings/**', async (route) => {
      reached.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    });
    page.on('dialog', (d) => void d.accept());

    await page.getByRole('button', { name: 'SETTINGS' }).click();
    const dialog = settingsPanel(page);
    await dialog.getByRole('button', { name: 'ACTIVATE' }).click();
    const toast = toasts(page);
    await expect(toast.getByText('Error', { exact: true })).toBeVisible();
    await expect(toast.getByText('Failed to activate global access', { exact: true })).toBeVisible();

    await dialog.getByRole('button', { name: 'INITIATE' }).click();
    await dialog.getByRole('button', { name: 'CONFIRM' }).click();
    await expect(toast.getByText('Self-destruct sequence failed', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'INITIATE' })).toBeVisible();
    expect(reached).toEqual(['POST /api/settings/global-access', 'POST /api/settings/self-destruct']);
  });
});
