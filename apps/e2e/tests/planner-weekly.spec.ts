// Spec 2.8 (weekly schedule screen), 5 (template rule), 8 (template toasts) and 9 (12-hour badge, order).
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('planner: weekly schedule', () => {
  test("templates for today's weekday: 12-hour badges in time order, Apply to Today, Today's Mission Log", async ({ page, owner, snapshot }, testInfo) => {
    const tag = `${testInfo.project.name} ${randomBytes(3).toString('hex')}`;
    const afternoon = `Rooftop patrol ${tag}`;
    const midnight = `Signal sweep ${tag}`;
    const weekday = new Date().getUTCDay();
    const todayName = DAYS[weekday]!;
    const emptyName = DAYS[(weekday + 3) % 7]!;

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInByApi(page, owner, '/weekly-schedule');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('WEEKLY SCHEDULE TEMPLATES');
    await expect(page.getByText('Create different schedules for each day of the week', { exact: true })).toBeVisible();
    const toast = toasts(page);
    const templates = panel(page, 'WEEKLY TEMPLATES');
    const form = panel(page, 'ADD TEMPLATE');

    // Seven tabs, Monday selected; a day without templates.
    await expect(templates.getByRole('tab')).toHaveText(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    await expect(templates.getByRole('tab', { selected: true })).toHaveText('MON');
    await expect(form.getByText('For Monday', { exact: true })).toBeVisible();
    await templates.getByRole('tab', { name: emptyName }).click();
    await expect(templates.getByText(`No templates for ${emptyName}`, { exact: true })).toBeVisible();
    await expect(templates.getByText('Add your first template to get started', { exact: true })).toBeVisible();
    await expect(form.getByText(`For ${emptyName}`, { exact: true })).toBeVisible();

    // Today's tab: create two templates; the button waits for a title and a time.
    await templates.getByRole('tab', { name: todayName }).click();
    await expect(form.getByText(`For ${todayName}`, { exact: true })).toBeVisible();
    const create = form.getByRole('button', { name: 'Create Template' });
    const repeating = form.getByLabel('Repeating weekly (uncheck for one-time missions that delete after completion)');
    await expect(create).toBeDisabled();
    await expect(repeating).toBeChecked();
    for (const [title, time, description] of [
      [afternoon, '13:05', 'North towers first.'],
      [midnight, '00:30', ''],
    ] as const) {
      await form.getByPlaceholder('Morning briefing...').fill(title);
      await expect(create).toBeDisabled();
      await form.getByLabel('Time', { exact: true }).fill(time);
      await form.getByPlaceholder('Template objectives...').fill(description);
      await expect(create).toBeEnabled();
      await create.click();
      await expect(toast.getByText('Template Created', { exact: true })).toBeVisible();
      await expect(form.getByPlaceholder('Morning briefing...')).toHaveValue('');
    }
    const mine = templates
      .getByRole('list', { name: `${todayName} templates` })
      .getByRole('listitem')
      .filter({ hasText: tag });
    await expect(mine).toHaveCount(2);
    await expect(mine.nth(0)).toContainText('12:30 AM');
    await expect(mine.nth(0)).toContainText(midnight);
    await expect(mine.nth(1)).toContainText('1:05 PM');
    await expect(mine.nth(1)).toContainText('North towers first.');

    // Apply to Today: both join Today's Mission Log as ACTIVE, with their raw times.
    await templates.getByRole('button', { name: 'Apply to Today' }).click();
    await expect(toast.getByText('Template Applied', { exact: true })).toBeVisible();
    const todaysLog = page.getByRole('region', { name: "Today's Mission Log" });
    for (const [title, time] of [
      [afternoon, '13:05'],
      [midnight, '00:30'],
    ]) {
      const entry = todaysLog.getByRole('listitem').filter({ hasText: title });
      await expect(entry).toContainText(time);
      await expect(entry.getByText('ACTIVE', { exact: true })).toBeVisible();
    }

    // Delete one template; its mission for today stays in the log.
    await mine
      .filter({ hasText: midnight })
      .getByRole('button', { name: `Delete ${midnight}` })
      .click();
    await expect(toast.getByText('Template Deleted', { exact: true })).toBeVisible();
    await expect(mine).toHaveCount(1);
    await expect(todaysLog.getByRole('listitem').filter({ hasText: midnight })).toHaveCount(1);

    await expectNoHorizontalOverflow(page);
    await snapshot('planner-weekly-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-weekly-375');
  });
});
