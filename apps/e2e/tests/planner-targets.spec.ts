// Spec 2.5 (the dashboard's TARGETS card), 2.10 (targets screen), 4 (target states) and 8 (toasts).
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
  const { scrollWidth, innerWidth, outside } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // What sticks out on the right, so that a failure names it.
    outside: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right ${Math.round(element.getBoundingClientRect().right)}`)
      .slice(0, 5),
  }));
  expect(scrollWidth, `wider than the screen: ${outside.join('; ')}`).toBeLessThanOrEqual(innerWidth);
}

test.describe('planner: targets card', () => {
  test('adds with Enter and the button, eliminates and reactivates, then the targets screen agrees', async ({ page, owner, snapshot }, testInfo) => {
    const tag = `${testInfo.project.name} ${randomBytes(3).toString('hex')}`;
    const first = `Shadow the courier ${tag}`;
    const second = `Intercept the shipment ${tag}`;

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInByApi(page, owner);
    const toast = toasts(page);
    const card = panel(page, 'TARGETS');
    const input = card.getByPlaceholder('Identify new target...', { exact: true });

    await expect(card.getByText('No targets identified', { exact: true })).toBeVisible();
    await expect(stat(page, 'Targets Eliminated')).toHaveText('0');

    // Enter adds; so does the button.
    await input.fill(first);
    await input.press('Enter');
    await expect(toast.getByText('Target Marked', { exact: true })).toBeVisible();
    await expect(input).toHaveValue('');
    await input.fill(second);
    await card.getByRole('button', { name: 'Add target' }).click();
    await expect(card.getByText(second, { exact: true })).toBeVisible();

    // A refused add keeps the text and says so (answer stubbed in the browser).
    await page.route('**/api/targets', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, contentType: 'text/plain', body: '' }) : route.fallback(),
    );
    await input.fill('Never stored');
    await input.press('Enter');
    await expect(toast.getByText('Failed to add target', { exact: true })).toBeVisible();
    await expect(input).toHaveValue('Never stored');
    await page.unroute('**/api/targets');
    await input.fill('');

    // Tick: struck through and counted; untick: back again.
    const box = card.getByRole('checkbox', { name: first, exact: true });
    await box.click();
    await expect(toast.getByText('Target Eliminated', { exact: true })).toBeVisible();
    await expect(toast.getByText('Objective successfully completed', { exact: true })).toBeVisible();
    await expect(box).toBeChecked();
    await expect(card.getByText(first, { exact: true })).toHaveCSS('text-decoration-line', 'line-through');
    await expect(stat(page, 'Targets Eliminated')).toHaveText('1');
    await box.click();
    await expect(toast.getByText('Target Reactivated', { exact: true })).toBeVisible();
    await expect(toast.getByText('Target marked as active again', { exact: true })).toBeVisible();
    await expect(box).not.toBeChecked();
    await expect(card.getByText(first, { exact: true })).toHaveCSS('text-decoration-line', 'none');
    await expect(stat(page, 'Targets Eliminated')).toHaveText('0');

    // Eliminate the second one for the targets screen.
    await card.getByRole('checkbox', { name: second, exact: true }).click();
    await expect(stat(page, 'Targets Eliminated')).toHaveText('1');

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'TARGETS' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Target Elimination System');
    await expect(panel(page, 'Active Targets').getByRole('listitem').filter({ hasText: first })).toContainText('ACTIVE');
    await expect(panel(page, 'Eliminated Targets').getByRole('listitem').filter({ hasText: second })).toContainText('ELIMINATED');
    await expect(stat(page, 'Active Targets')).toHaveText('1');
    await expect(stat(page, 'Eliminated')).toHaveText('1');
    await expect(stat(page, 'Success Rate')).toHaveText('50%');

    await expectNoHorizontalOverflow(page);
    await snapshot('planner-targets-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-targets-375');
  });
});
