// Every delete of the owner's content offers UNDO while its toast shows; the
// DELETE is sent only when the toast goes (or the page does).
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';
import { api, tag } from '../support/seed.ts';

interface Entry {
  id: string;
  title?: string;
  createdAt: string;
  updatedAt?: string;
}

/**
 * Past the undo window (the spec's long toast, 8 s), on the page's clock: the
 * tests install Playwright's clock before the app loads and run its timers
 * forward instead of waiting in real time.
 */
const PAST_THE_UNDO_WINDOW_MS = 9_000;

async function undo(page: Page) {
  await toasts(page).getByRole('button', { name: 'UNDO' }).click();
}

/** Polls a list until `present` holds for the row with this id. */
async function expectOnServer(page: Page, path: string, id: string, present: boolean) {
  await expect
    .poll(async () => ((await api<{ id: string }[]>(page.request, 'GET', path)) ?? []).some((row) => row.id === id), { timeout: 15_000 })
    .toBe(present);
}

test.describe('undo', () => {
  test('a journal entry deleted by mistake is back after UNDO, with its dates unchanged', async ({ page, owner, snapshot }) => {
    const t = tag();
    await page.clock.install();
    await signInByApi(page, owner, '/journal');
    const created = await api<Entry>(page.request, 'POST', '/api/journal', { title: `Mis-tap ${t}`, content: 'Words worth keeping.' });
    // Edited once, so that it has an "(Updated: ...)" date to keep as well.
    const edited = await api<Entry>(page.request, 'PATCH', `/api/journal/${created.id}`, { title: `Mis-tap ${t}`, content: 'Words worth keeping, edited.' });
    await page.reload();
    const item = panel(page, 'INTELLIGENCE LOGS')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: `Mis-tap ${t}` }) });
    const dates = await item.locator('p.text-xs').first().innerText();
    expect(dates).toContain('(Updated:');

    await item.getByRole('button', { name: `Delete Mis-tap ${t}` }).click();
    await expect(toasts(page)).toContainText('Entry Deleted');
    await expect(item).toHaveCount(0);
    await snapshot('undo-journal-toast');
    await undo(page);
    await expect(item).toHaveCount(1);
    await expect(item.locator('p.text-xs').first()).toHaveText(dates);

    // Past the undo window: still there, the very row it was.
    await page.clock.runFor(PAST_THE_UNDO_WINDOW_MS);
    const rows = await api<Entry[]>(page.request, 'GET', '/api/journal');
    const row = rows.find((r) => r.id === created.id);
    expect(row).toMatchObject({ createdAt: created.createdAt, updatedAt: edited.updatedAt });
    await page.reload();
    await expect(item.locator('p.text-xs').first()).toHaveText(dates);
    await api(page.request, 'DELETE', `/api/journal/${created.id}`);
  });

  test('a study, a custom mission and a template come back with UNDO; without it they go (targets have no delete control: spec 7)', async ({ page, owner }) => {
    const t = tag();
    await page.clock.install();
    await signInByApi(page, owner, '/');
    const study = await api<{ id: string }>(page.request, 'POST', '/api/studies', { subject: `Undo study ${t}`, endGoal: 'Keep it' });
    const mission = await api<{ id: string }>(page.request, 'POST', '/api/activities', { title: `Undo mission ${t}` });
    const template = await api<{ id: string }>(page.request, 'POST', '/api/weekly-templates', {
      title: `Undo template ${t}`,
      time: '05:15',
      dayOfWeek: 1,
      isRepeating: true,
    });
    await page.reload();

    const kinds = [
      { path: '/', button: `Delete Undo study ${t}`, text: `Undo study ${t}`, toast: 'Study Deleted', list: '/api/studies', id: study.id },
      { path: '/', button: `Delete Undo mission ${t}`, text: `Undo mission ${t}`, toast: 'Mission Removed', list: '/api/activities', id: mission.id },
      {
        path: '/weekly-schedule',
        button: `Delete Undo template ${t}`,
        text: `Undo template ${t}`,
        toast: 'Template Deleted',
        list: '/api/weekly-templates',
        id: template.id,
      },
    ];
    for (const kind of kinds) {
      if (new URL(page.url()).pathname !== kind.path) await page.goto(kind.path);
      const shown = page.getByText(kind.text, { exact: true });
      await expect(shown).toBeVisible();
      await page.getByRole('button', { name: kind.button }).click();
      await expect(toasts(page)).toContainText(kind.toast);
      await expect(shown).toHaveCount(0);
      await undo(page);
      await expect(shown).toBeVisible();
    }
    // Nothing was sent: every one is still on the server after the undo windows.
    await page.clock.runFor(PAST_THE_UNDO_WINDOW_MS);
    for (const kind of kinds) await expectOnServer(page, kind.list, kind.id, true);

    // Deleted for good: the template when its toast's time runs out...
    await page.goto('/weekly-schedule');
    await page.getByRole('button', { name: `Delete Undo template ${t}` }).click();
    await expect(toasts(page)).toContainText('Template Deleted');
    await expectOnServer(page, '/api/weekly-templates', template.id, true);
    await page.clock.runFor(PAST_THE_UNDO_WINDOW_MS);
    await expectOnServer(page, '/api/weekly-templates', template.id, false);
    // ...and the study when the page goes first (sent with keepalive at pagehide).
    await page.goto('/');
    await page.getByRole('button', { name: `Delete Undo study ${t}` }).click();
    await expect(toasts(page)).toContainText('Study Deleted');
    await page.goto('/logs');
    await expectOnServer(page, '/api/studies', study.id, false);

    // ...and the mission when the owner signs out at once: sent before the logout ends the session.
    await page.goto('/');
    await page.getByRole('button', { name: `Delete Undo mission ${t}` }).click();
    await expect(toasts(page)).toContainText('Mission Removed');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
    await signInByApi(page, owner, '/');
    await expectOnServer(page, '/api/activities', mission.id, false);
  });
});
