// Spec 2.5 (dashboard), 2.7 (mission generator), 4 (schedule item states), 5 and 8:
// the command center's MISSION SCHEDULE, MISSION LOG and MISSION GENERATOR against the real vault.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

const NO_SCHEDULE = 'No Schedule Today - Create templates in SCHEDULE section, then apply them to today.';

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('planner: dashboard', () => {
  test('generator, custom missions, and a one-time mission applied, completed and logged', async ({ page, owner, snapshot }, testInfo) => {
    const tag = `${testInfo.project.name} ${randomBytes(3).toString('hex')}`;
    const missionTitle = `Night recon ${tag}`;
    const formMission = `Knot drill ${tag}`;
    const takenMission = `Taken elsewhere ${tag}`;
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const weekday = now.getUTCDay();

    await page.setViewportSize({ width: 1440, height: 900 });
    // The page's day is the test's, even when the run crosses midnight (CI once failed so at 00:00 UTC).
    await page.clock.setFixedTime(now);
    await signInByApi(page, owner);
    const toast = toasts(page);
    const schedule = panel(page, 'MISSION SCHEDULE');
    const log = panel(page, 'MISSION LOG');
    const generator = panel(page, 'MISSION GENERATOR');

    // A fresh vault: nothing scheduled, nothing logged, no custom missions.
    await expect(schedule.getByText(NO_SCHEDULE, { exact: true })).toBeVisible();
    await expect(log.getByText('No recent mission activity', { exact: true })).toBeVisible();
    await expect(generator.getByText('No custom missions yet', { exact: true })).toBeVisible();

    // GENERATE always changes the mission; details fold open and shut.
    const current = generator.getByTestId('current-mission');
    for (let i = 0; i < 3; i++) {
      const before = (await current.innerText()).trim();
      expect(before).not.toBe('');
      await generator.getByRole('button', { name: 'GENERATE' }).click();
      await expect(current).not.toHaveText(before);
    }
    await generator.getByRole('button', { name: 'Show Details' }).click();
    await expect(generator.getByRole('button', { name: 'Hide Details' })).toHaveAttribute('aria-expanded', 'true');
    await generator.getByRole('button', { name: 'Hide Details' }).click();
    await expect(generator.getByRole('button', { name: 'Show Details' })).toHaveAttribute('aria-expanded', 'false');

    // The plus button keeps the current mission; a second save is refused.
    const saved = (await current.innerText()).trim();
    const customList = generator.getByRole('list', { name: 'Your custom missions' });
    await generator.getByRole('button', { name: 'Save mission to custom pool' }).click();
    await expect(toast.getByText('Mission Added', { exact: true })).toBeVisible();
    await expect(customList.getByText(saved, { exact: true })).toBeVisible();
    await generator.getByRole('button', { name: 'Save mission to custom pool' }).click();
    await expect(toast.getByText('Already Exists', { exact: true })).toBeVisible();
    await expect(toast.getByText('This mission is already in your custom pool', { exact: true })).toBeVisible();
    await expect(customList.getByRole('listitem')).toHaveCount(1);

    // "Add New Mission": title trimmed, blank description left out.
    const posted: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/activities') posted.push(request.postDataJSON());
    });
    await generator.getByRole('button', { name: 'Add New Mission' }).click();
    const form = generator.getByRole('form', { name: 'Add New Mission' });
    await form.getByLabel('Mission Title').fill(`  ${formMission}  `);
    await form.getByRole('button', { name: 'Add Mission' }).click();
    await expect(toast.getByText('Mission Added', { exact: true })).toBeVisible();
    await expect(customList.getByText(formMission, { exact: true })).toBeVisible();
    expect(posted).toEqual([{ title: formMission }]);

    // A title taken behind this page's back: the server's 409 gives the same "Already Exists".
    expect((await page.request.post('/api/activities', { data: { title: takenMission } })).status()).toBe(201);
    await form.getByLabel('Mission Title').fill(takenMission);
    await form.getByRole('button', { name: 'Add Mission' }).click();
    await expect(toast.getByText('Already Exists', { exact: true })).toBeVisible();
    await expect(customList.getByText(takenMission, { exact: true })).toBeVisible();

    // Delete the saved one.
    await customList.getByRole('button', { name: `Delete ${saved}`, exact: true }).click();
    await expect(toast.getByText('Mission Removed', { exact: true })).toBeVisible();
    await expect(customList.getByText(saved, { exact: true })).toHaveCount(0);
    await expect(customList.getByRole('listitem')).toHaveCount(2);

    // A one-time template for today's weekday is offered on the dashboard...
    const created = await page.request.post('/api/weekly-templates', {
      data: { title: missionTitle, description: 'Sweep the east docks.', time: '00:05', dayOfWeek: weekday, isRepeating: false },
    });
    expect(created.status()).toBe(201);
    await page.reload();
    await expect(schedule.getByText('No active missions. Available templates:', { exact: true })).toBeVisible();
    const offered = schedule.getByRole('listitem').filter({ hasText: missionTitle });
    await expect(offered).toContainText('12:05 AM');

    // ...applied to today...
    await schedule.getByRole('button', { name: 'Apply Templates to Today' }).click();
    await expect(toast.getByText('Templates Applied', { exact: true })).toBeVisible();
    const row = schedule.getByRole('listitem').filter({ hasText: missionTitle });
    await expect(row).toContainText('00:05');
    await expect(row).toContainText('Sweep the east docks.');
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-dashboard-1440');

    // ...completed with the circle button, and logged.
    await row.getByRole('button', { name: `Complete ${missionTitle}`, exact: true }).click();
    await expect(toast.getByText('Mission Complete', { exact: true })).toBeVisible();
    const logged = log.getByRole('listitem').filter({ hasText: `Mission Completed: ${missionTitle}` });
    await expect(logged).toContainText('00:05');
    await expect(logged.getByText('COMPLETE', { exact: true })).toBeVisible();
    await expect(schedule.getByText(missionTitle)).toHaveCount(0);
    // A one-time mission's template is gone once the mission is done.
    await expect(schedule.getByText(NO_SCHEDULE, { exact: true })).toBeVisible();
    const day = (await (await page.request.get(`/api/weekly-templates/${weekday}`)).json()) as { title: string }[];
    expect(day.map((t) => t.title)).not.toContain(missionTitle);
    const items = (await (await page.request.get(`/api/schedule/${today}`)).json()) as { title: string; completed: boolean }[];
    expect(items.find((i) => i.title === missionTitle)).toMatchObject({ completed: true });

    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.getByRole('button', { name: 'Open navigation menu' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-dashboard-375');
  });
});
