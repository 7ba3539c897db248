// Spec 2.12 (balance screen), 5 (amount rule) and 8 ("Failed to update balance").
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('planner: balance', () => {
  test('starts at 1,000,000,000; subtracting 1,000 shows 999,999,000; refusals change nothing', async ({ page, owner, snapshot }) => {
    const subtractCalls: unknown[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/bonaparte/subtract') subtractCalls.push(request.postDataJSON());
    });

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInByApi(page, owner, '/bonaparte');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('BONAPARTE');

    const balance = panel(page, 'BALANCE').getByText(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
    await expect(balance).toHaveText('1,000,000,000');
    const input = page.getByPlaceholder('Enter amount', { exact: true });
    const subtract = page.getByRole('button', { name: 'Subtract', exact: true });
    await expect(input).toHaveAttribute('type', 'number');
    await expect(input).toHaveAttribute('min', '0');
    await expect(input).toHaveAttribute('required', '');
    await expect(subtract).toBeDisabled();

    // 0 is not above 0: ignored, no call.
    await input.fill('0');
    await expect(subtract).toBeEnabled();
    await subtract.click();
    await expect(balance).toHaveText('1,000,000,000');

    // 1,000: the balance is read again and the input cleared.
    await input.fill('1000');
    await subtract.click();
    await expect(balance).toHaveText('999,999,000');
    await expect(input).toHaveValue('');
    await expect(subtract).toBeDisabled();
    await expect(toasts(page)).toBeEmpty();

    // More than the balance: the server refuses (422) and the balance stays.
    await input.fill('5000000000');
    await subtract.click();
    await expect(toasts(page).getByText('Failed to update balance', { exact: true })).toBeVisible();
    await expect(balance).toHaveText('999,999,000');
    expect(subtractCalls).toEqual([{ amount: 1000 }, { amount: 5_000_000_000 }]);
    expect(await (await page.request.get('/api/bonaparte/balance')).json()).toEqual({ amount: 999_999_000 });

    await input.fill('');
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-balance-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(balance).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snapshot('planner-balance-375');
  });
});
