// Spec 2.1: signed out, only / is offered; any other path is not found.
import { expect, test, vaultTitle } from '../support/fixtures.ts';

test.describe('signed out', () => {
  test('/journal shows "404 Page Not Found"', async ({ page, owner, snapshot }) => {
    expect((await page.request.get('/api/user')).status()).toBe(401);

    await page.goto('/journal');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expect(page).toHaveURL('/journal');
    // Neither the journal nor the signed-in shell nor the login form is offered here.
    await expect(page.getByText('Intelligence Vault')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.getByPlaceholder('Enter password')).toHaveCount(0);
    await snapshot('journal-not-found');

    // The way back leads to the login screen.
    await page.getByRole('link', { name: 'Return to base' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(vaultTitle(owner));
    await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
  });
});
