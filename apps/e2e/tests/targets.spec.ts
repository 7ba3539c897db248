// Spec 2.2 (sign-in), 2.3 (header), 2.10 (targets screen) and 8 (target toasts).
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, panel, signIn, test, toasts, vaultTitle } from '../support/fixtures.ts';

interface TargetJson {
  id: string;
  title: string;
  description?: string;
  completed: boolean;
  createdAt: string;
  completedAt: string | null;
}

/** The value of a stat card ("Active Targets", "Eliminated", "Success Rate"). */
function stat(page: Page, label: string) {
  return page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

async function statNumber(page: Page, label: string): Promise<number> {
  return Number.parseInt((await stat(page, label).innerText()).trim(), 10);
}

const DATE = /\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b/;

test.describe('targets', () => {
  test('sign in, mark a target, eliminate it, and it stays eliminated after a reload', async ({ page, owner, snapshot }, testInfo) => {
    const title = `Neutralise decoy ${testInfo.project.name} ${randomBytes(4).toString('hex')}`;
    const notes = 'Approach from the east at dawn.';

    // Sign in and land on the dashboard.
    await signIn(page, owner);
    await expect(page).toHaveURL('/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const label of ['COMMAND CENTER', 'SCHEDULE', 'INTEL VAULT', 'TARGETS', 'BONAPARTE', 'LOGS']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'COMMAND CENTER', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(vaultTitle(owner), { exact: true })).toBeVisible();
    await expect(page.getByText('SECURE CONNECTION', { exact: true })).toBeVisible();
    await expect(page.getByRole('banner').locator('time')).toHaveText(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    expect((await page.request.get('/api/user')).status()).toBe(200);

    // Navigate to TARGETS.
    await nav.getByRole('link', { name: 'TARGETS', exact: true }).click();
    await expect(page).toHaveURL('/targets');
    await expect(nav.getByRole('link', { name: 'TARGETS', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Target Elimination System');
    const active = panel(page, 'Active Targets');
    const eliminated = panel(page, 'Eliminated Targets');
    await expect(active).toBeVisible();
    const activeBefore = await statNumber(page, 'Active Targets');
    const eliminatedBefore = await statNumber(page, 'Eliminated');

    // Mark a new target.
    const form = panel(page, 'Mark New Target');
    await form.getByLabel('Target Objective').fill(title);
    await form.getByLabel('Strategic Notes').fill(notes);
    await form.getByRole('button', { name: 'Mark Target' }).click();

    const toast = toasts(page);
    await expect(toast.getByText('Target Marked', { exact: true })).toBeVisible();
    await expect(toast.getByText('New target added to elimination list', { exact: true })).toBeVisible();

    const activeRow = active.getByRole('listitem').filter({ hasText: title });
    await expect(activeRow).toHaveCount(1);
    await expect(activeRow).toContainText(notes);
    await expect(activeRow).toContainText('ACTIVE');
    await expect(activeRow.getByText(/^Marked: /)).toHaveText(DATE);
    const completeBox = activeRow.getByRole('checkbox', { name: `Complete ${title}`, exact: true });
    await expect(completeBox).not.toBeChecked();
    await expect(form.getByLabel('Target Objective')).toHaveValue('');
    await expect(stat(page, 'Active Targets')).toHaveText(String(activeBefore + 1));
    await expect(eliminated.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);

    // Tick it: it moves to "Eliminated Targets".
    await completeBox.click();
    await expect(toast.getByText('Target Eliminated', { exact: true })).toBeVisible();
    await expect(toast.getByText('Objective successfully completed', { exact: true })).toBeVisible();

    const eliminatedRow = eliminated.getByRole('listitem').filter({ hasText: title });
    const checkEliminated = async () => {
      await expect(eliminated).toBeVisible();
      await expect(eliminatedRow).toHaveCount(1);
      await expect(eliminatedRow.getByRole('checkbox', { name: `Reactivate ${title}`, exact: true })).toBeChecked();
      await expect(eliminatedRow).toContainText('ELIMINATED');
      await expect(eliminatedRow.getByText(/^Eliminated: /)).toHaveText(DATE);
      await expect(eliminatedRow.locator('label')).toHaveCSS('text-decoration-line', 'line-through');
      await expect(active.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
      await expect(stat(page, 'Active Targets')).toHaveText(String(activeBefore));
      await expect(stat(page, 'Eliminated')).toHaveText(String(eliminatedBefore + 1));
      const total = activeBefore + eliminatedBefore + 1;
      await expect(stat(page, 'Success Rate')).toHaveText(`${Math.round(((eliminatedBefore + 1) / total) * 100)}%`);
    };
    await checkEliminated();
    await snapshot('targets-eliminated');

    // Reload: the server kept it eliminated.
    await page.reload();
    await expect(page).toHaveURL('/targets');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Target Elimination System');
    await checkEliminated();
    await expect(toasts(page)).toBeEmpty();

    const response = await page.request.get('/api/targets');
    expect(response.status()).toBe(200);
    const stored = ((await response.json()) as TargetJson[]).filter((t) => t.title === title);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ title, description: notes, completed: true });
    expect(Date.parse(stored[0].completedAt ?? '')).not.toBeNaN();
    await snapshot('targets-after-reload');
  });
});
