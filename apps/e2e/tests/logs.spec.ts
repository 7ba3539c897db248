// Spec 2.13: the logs screen shows the sign-in.
import { expect, panel, signInByApi, test } from '../support/fixtures.ts';

test.describe('logs', () => {
  test('the access log shows the sign-in entry, coloured green, with a 24-hour time', async ({ page, owner, snapshot }) => {
    await signInByApi(page, owner, '/logs');
    await expect(page.getByRole('heading', { level: 1, name: 'LOGS' })).toBeVisible();
    await expect(page.getByText('Access Attempt Monitoring System')).toBeVisible();
    const card = panel(page, 'ACCESS ATTEMPTS');
    const signIn = card.getByRole('listitem').filter({ hasText: 'LOGIN SUCCESS' }).first();
    await expect(signIn).toBeVisible();
    await expect(signIn.locator('svg').first()).toBeVisible();
    await expect(signIn.locator('time')).toHaveText(/\b([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    await expect(signIn).toContainText(/\d+\.\d+\.\d+\.\d+|[0-9a-f:]+/i);
    expect(await signIn.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(74, 222, 128)');
    await snapshot('logs');

    await page.setViewportSize({ width: 375, height: 812 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await snapshot('logs-375');
  });
});
