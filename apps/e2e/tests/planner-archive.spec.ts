// Spec 2.6 (today's studies), 2.11 (studies archive), 4 (study states), 5 and 8:
// an empty archive, then a study added, another deleted, one completed and found in the archive.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

function stat(page: Page, label: string) {
  return page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** "November 22, 2026 at 4:05 AM". */
const LONG_DATE = /^Completed: [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M$/;

test.describe('planner: studies archive', () => {
  test('empty at first; a study completed on the dashboard lands in this month’s group', async ({ page, owner, snapshot }, testInfo) => {
    const tag = `${testInfo.project.name} ${randomBytes(3).toString('hex')}`;
    const subject = `Cryptography ${tag}`;
    const dropped = `Lockpicking ${tag}`;
    const goal = 'Break a Vigenère cipher by hand';

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInByApi(page, owner);
    const toast = toasts(page);
    const studies = panel(page, "TODAY'S STUDIES");

    // The empty archive, opened from the studies card.
    await studies.getByRole('link', { name: 'Archive' }).click();
    await expect(page).toHaveURL('/studies-archive');
    await expect(page.getByText('No completed studies yet', { exact: true })).toBeVisible();
    await expect(page.getByText(/Complete studies from the dashboard/)).toBeVisible();
    for (const label of ['Completed Studies', 'Unique Subjects', 'Active Months']) await expect(stat(page, label)).toHaveText('0');

    // Back on the dashboard: no studies yet; add two from the toggled form.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'COMMAND CENTER' }).click();
    await expect(studies.getByText('No studies added for today. Add your first study below!', { exact: true })).toBeVisible();
    await studies.getByRole('button', { name: 'Add New Study' }).click();
    const add = studies.getByRole('button', { name: 'Add Study' });
    await expect(add).toBeDisabled();
    for (const [s, g] of [
      [subject, goal],
      [dropped, 'Open a pin tumbler lock'],
    ]) {
      await studies.getByLabel('Subject').fill(s);
      await studies.getByLabel('End Goal').fill(g);
      await add.click();
      await expect(toast.getByText('Study Added', { exact: true })).toBeVisible();
      await expect(studies.getByText(s, { exact: true })).toBeVisible();
      await expect(studies.getByLabel('Subject')).toHaveValue('');
    }
    await expect(studies.getByText(`End Goal: ${goal}`, { exact: true })).toBeVisible();

    // Delete one.
    await studies.getByRole('button', { name: `Delete ${dropped}`, exact: true }).click();
    await expect(toast.getByText('Study Deleted', { exact: true })).toBeVisible();
    await expect(studies.getByText(dropped, { exact: true })).toHaveCount(0);

    // Complete the other: it leaves the card for the archive.
    await studies.getByRole('checkbox', { name: `Complete ${subject}`, exact: true }).click();
    await expect(toast.getByText('Study Completed', { exact: true })).toBeVisible();
    await expect(toast.getByText('Study moved to the archive', { exact: true })).toBeVisible();
    await expect(studies.getByText(subject, { exact: true })).toHaveCount(0);
    await expect(studies.getByText('No studies added for today. Add your first study below!', { exact: true })).toBeVisible();

    // In the archive, under this month's uppercase heading.
    await studies.getByRole('link', { name: 'Archive' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('STUDIES ARCHIVE');
    const month = new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric' }).toUpperCase();
    const group = panel(page, month);
    const entry = group.getByRole('listitem').filter({ hasText: subject });
    await expect(entry.getByText('COMPLETED', { exact: true })).toBeVisible();
    await expect(entry.getByText(`Goal: ${goal}`, { exact: true })).toBeVisible();
    await expect(entry.getByText(/^Completed: /)).toHaveText(LONG_DATE);
    await expect(stat(page, 'Completed Studies')).toHaveText('1');
    await expect(stat(page, 'Unique Subjects')).toHaveText('1');
    await expect(stat(page, 'Active Months')).toHaveText('1');
    await expect(page.getByText(dropped)).toHaveCount(0);

    await expectNoHorizontalOverflow(page);
    await snapshot('planner-archive-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(entry).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-archive-375');
  });
});
