// Spec 2.2 (login screen) and 8 (login errors).
import { expect, test, toasts, vaultTitle } from '../support/fixtures.ts';

test.describe('login screen', () => {
  test('shows the owner’s access portal and denies a wrong password', async ({ page, owner, snapshot }) => {
    const loginRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/login') loginRequests.push(request.method());
    });

    await page.goto('/');

    // Title with the owner's name (from this project's own vault), subtitle, banner.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(vaultTitle(owner));
    await expect(page.getByText('Personal Access Portal', { exact: true })).toBeVisible();
    await expect(page.getByText('MAXIMUM SECURITY ACTIVE', { exact: true })).toBeVisible();

    // The fixed, read-only, disabled username; the masked password field.
    const username = page.getByLabel('Username', { exact: true });
    await expect(username).toHaveValue(owner.username);
    await expect(username).toBeDisabled();
    await expect(username).toHaveAttribute('readonly', '');
    const password = page.getByPlaceholder('Enter password', { exact: true });
    await expect(password).toBeVisible();
    await expect(password).toHaveAttribute('type', 'password');

    const submit = page.getByRole('button', { name: 'SECURE ACCESS' });
    await expect(submit).toBeEnabled();
    await expect(page.getByText('Session auto-expires in half an hour', { exact: true })).toBeVisible();
    await expect(page.getByText('All access attempts are logged', { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await snapshot('login');

    // A blank password is not submitted (checked below: the wrong password is the only request).
    await password.fill('   ');
    await submit.click();
    await expect(submit).toHaveText('SECURE ACCESS');

    // A wrong password: the server refuses it and the "Access Denied" toast explains.
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login' && r.request().method() === 'POST');
    await password.fill(`${owner.password}-wrong`);
    await submit.click();
    expect((await answer).status()).toBe(401);
    expect(loginRequests).toEqual(['POST']);

    const toast = toasts(page);
    await expect(toast.getByText('Access Denied', { exact: true })).toBeVisible();
    await expect(toast.getByText('Invalid credentials. Access restricted to authorized user only.', { exact: true })).toBeVisible();
    await expect(toast.locator('[data-variant="destructive"]')).toHaveCount(1);

    // Still signed out, still on the login screen, ready for another attempt.
    await expect(page).toHaveURL('/');
    await expect(submit).toBeEnabled();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(vaultTitle(owner));
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await snapshot('login-denied');
  });
});
