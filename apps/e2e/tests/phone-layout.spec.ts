// What a person meets on a phone (375 px) and a desktop (1280 px): no text drawn
// over other text on any screen with data in it, readable access logs, no
// toast over the header's controls, and the template form before a long list.
// A vault of its own: the screens are measured full of data, which the shared
// vaults' tests (some start from an empty vault) must not find.
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, toasts } from '../support/fixtures.ts';
import { boxesOf, intersection, textOverlaps } from '../support/layout.ts';
import { withPrivateVault } from '../support/private-vault.ts';
import { api, seedVault, tag } from '../support/seed.ts';
import { SCREENS } from '../support/screens.ts';

const OWNER = { name: 'Clark Kent', username: 'clark', password: 'Fortress-e2e-8&w' };
const test = withPrivateVault(OWNER, { embedded: 3321, distributed: 3322 });

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

/** Each screen, and a text that shows once its data is in. */
function screens(seeded: Awaited<ReturnType<typeof seedVault>>) {
  const ready: Record<string, string> = {
    '/': seeded.target,
    '/weekly-schedule': seeded.template,
    '/journal': seeded.journalTitle,
    '/targets': seeded.target,
    '/studies-archive': 'COMPLETED',
    '/bonaparte': 'Subtract',
    '/logs': 'LOGIN SUCCESS',
  };
  return SCREENS.map((screen) => {
    if (!ready[screen.path]) throw new Error(`phone-layout.spec.ts: no text to wait for on ${screen.path}`);
    return { ...screen, ready: ready[screen.path] };
  });
}

async function dismissToasts(page: Page) {
  const close = toasts(page).getByRole('button', { name: 'Dismiss notification' });
  while ((await close.count()) > 0) await close.first().click();
}

test.describe('layout', () => {
  test('at 375 px no two pieces of text overlap on any screen with data, and the logs name browser and system', async ({ page, snapshot }) => {
    test.setTimeout(120_000);
    await signInByApi(page, OWNER, '/');
    const seeded = await seedVault(page);
    await page.setViewportSize(PHONE);
    for (const screen of screens(seeded)) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible();
      await expect(page.getByText(screen.ready).first()).toBeVisible();
      await dismissToasts(page);
      expect(await textOverlaps(page), `text drawn over text on ${screen.path} at 375 px`).toEqual([]);
      await snapshot(`375${screen.path === '/' ? '-dashboard' : screen.path.replace('/', '-')}`);
    }
    // The open menu too.
    await page.goto('/');
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    expect(await textOverlaps(page), 'text drawn over text with the menu open').toEqual([]);

    // Each log entry with a browser's agent names its browser and system, the full string on demand.
    await page.goto('/logs');
    const entries = panel(page, 'ACCESS ATTEMPTS').getByRole('listitem');
    await expect(entries.first()).toBeVisible();
    const agents = panel(page, 'ACCESS ATTEMPTS').locator('details');
    expect(await agents.count()).toBeGreaterThan(0);
    for (const agent of await agents.all()) {
      const summary = (await agent.locator('summary').innerText()).trim();
      expect(summary).toMatch(/^(Headless Chrome|Chrome|Chromium) \d+ on Linux$/);
      const box = await agent.locator('summary').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    await agents.first().locator('summary').click();
    await expect(agents.first().locator('p')).toContainText('Mozilla/5.0');
    await snapshot('375-logs-agent-open');
  });

  test('no toast covers a header control at 1280 px or 375 px, nor the open settings panel or menu', async ({ page, snapshot }) => {
    await signInByApi(page, OWNER, '/targets');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto('/targets');
      await expect(page.getByRole('heading', { level: 1, name: 'Target Elimination System' })).toBeVisible();
      // The longest toast the screen has: the failure with the server's reason under it.
      await page.getByLabel('Target Objective').fill(`x${'y'.repeat(300)}`);
      await page.getByRole('button', { name: 'Mark Target' }).click();
      const toast = toasts(page).locator('[data-variant]');
      await expect(toast).toBeVisible();
      const toastBox = (await toast.boundingBox())!;
      const controls = await boxesOf(page.locator('header').locator('button, a'));
      expect(controls.length).toBeGreaterThan(1);
      for (const control of controls) expect(intersection(toastBox, control.box), `the toast over ${control.name} at ${viewport.width} px`).toBeNull();
      // The settings panel (desktop) or the menu (phone), opened while the toast shows.
      if (viewport === DESKTOP) {
        await page.getByRole('button', { name: 'SETTINGS' }).click();
        const settings = (await page.getByRole('dialog', { name: 'VAULT SETTINGS' }).boundingBox())!;
        expect(intersection(toastBox, settings), 'the toast over the settings panel').toBeNull();
        // The viewport only: a full-page capture narrows it for a moment, which closes the desktop-only panel.
        await snapshot('toast-1280-settings', { fullPage: false });
        await page.keyboard.press('Escape');
      } else {
        await page.getByRole('button', { name: 'Open navigation menu' }).click();
        for (const link of await boxesOf(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link'))) {
          expect(intersection(toastBox, link.box), `the toast over ${link.name}`).toBeNull();
        }
        await snapshot('toast-375-menu', { fullPage: false });
      }
      await page.getByLabel('Target Objective').fill('');
    }
  });

  test('templates say whether they repeat, can be edited, and on a phone ADD TEMPLATE comes before a long list', async ({ page, snapshot }) => {
    const t = tag();
    await signInByApi(page, OWNER, '/');
    for (let i = 0; i < 8; i++) {
      await api(page.request, 'POST', '/api/weekly-templates', { title: `Drill ${i} ${t}`, time: `0${i}:10`, dayOfWeek: 1, isRepeating: i % 2 === 0 });
    }
    await page.setViewportSize(PHONE);
    await page.goto('/weekly-schedule');
    const list = page.getByRole('list', { name: 'Monday templates' });
    await expect(list.getByText(`Drill 7 ${t}`)).toBeVisible();
    const form = (await page.getByRole('heading', { name: 'ADD TEMPLATE' }).boundingBox())!;
    expect(form.y).toBeLessThan((await list.boundingBox())!.y);
    expect(form.y).toBeLessThan(PHONE.height);
    await snapshot('375-weekly-form-first');

    const row = (n: number) => list.getByRole('listitem').filter({ hasText: `Drill ${n} ${t}` });
    await expect(row(0)).toContainText('WEEKLY');
    await expect(row(1)).toContainText('ONE-TIME');

    await page.setViewportSize(DESKTOP);
    await row(1)
      .getByRole('button', { name: `Edit Drill 1 ${t}` })
      .click();
    const editor = page.getByRole('form', { name: `Edit Drill 1 ${t}` });
    await editor.getByLabel('Title').fill(`Drill one, weekly now ${t}`);
    await editor.getByLabel('Repeating weekly (uncheck for one-time missions that delete after completion)').check();
    await editor.scrollIntoViewIfNeeded();
    await snapshot('weekly-template-editor', { fullPage: false });
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toasts(page)).toContainText('Template Updated');
    await page.reload();
    const edited = page
      .getByRole('list', { name: 'Monday templates' })
      .getByRole('listitem')
      .filter({ hasText: `Drill one, weekly now ${t}` });
    await expect(edited).toContainText('WEEKLY');
    await expect(edited).toContainText('1:10 AM');
    await snapshot('weekly-templates-1280');
  });
});
