// A session that ends while the owner types: the text stays on the device and
// signing in again comes back to the same screen with it.
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';
import { tag } from '../support/seed.ts';

test.describe('session expiry', () => {
  test('a session expired while typing a journal entry: after signing in again, the journal with the draft', async ({ page, owner, context, snapshot }) => {
    const t = tag();
    await signInByApi(page, owner, '/journal');
    const form = panel(page, 'NEW INTELLIGENCE');
    await form.getByLabel('Title (optional)').fill(`Half-written ${t}`);
    await form.getByLabel('Intelligence').fill('The first paragraph,\nand the start of a second');

    // The session ends (the server forgets it as it does after half an hour).
    await context.clearCookies();
    await form.getByRole('button', { name: 'Encrypt & Store' }).click();
    await expect(toasts(page)).toContainText('You are logged out. Logging in again...');
    await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
    await snapshot('session-expired-login');

    await page.getByPlaceholder('Enter password').fill(owner.password);
    await page.getByRole('button', { name: 'SECURE ACCESS' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Intelligence Vault' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/journal');
    const back = panel(page, 'NEW INTELLIGENCE');
    await expect(back.getByLabel('Title (optional)')).toHaveValue(`Half-written ${t}`);
    await expect(back.getByLabel('Intelligence')).toHaveValue('The first paragraph,\nand the start of a second');
    await snapshot('session-draft-restored');

    // Stored now, the draft is gone from the form and from the device.
    await back.getByRole('button', { name: 'Encrypt & Store' }).click();
    await expect(toasts(page)).toContainText('Intelligence Logged');
    await expect(back.getByLabel('Intelligence')).toHaveValue('');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('vault.draft.')))).toEqual([]);
    await expect(panel(page, 'INTELLIGENCE LOGS').getByRole('heading', { name: `Half-written ${t}` })).toBeVisible();
  });

  test("opening a second entry's editor keeps the first one's unsaved edits", async ({ page, owner }) => {
    const t = tag();
    await signInByApi(page, owner, '/');
    for (const name of ['First', 'Second']) {
      const response = await page.request.post('/api/journal', { data: { title: `${name} ${t}`, content: `${name} content` } });
      expect(response.ok()).toBe(true);
    }
    await page.goto('/journal');
    const logs = panel(page, 'INTELLIGENCE LOGS');
    await logs.getByRole('button', { name: `Edit First ${t}` }).click();
    await logs.getByRole('form', { name: 'Edit entry' }).getByLabel('Edit intelligence').fill('First content, improved');
    await logs.getByRole('button', { name: `Edit Second ${t}` }).click();
    const first = logs.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `First ${t}` }) });
    await first.getByRole('button', { name: /UNSAVED EDITS/ }).click();
    await expect(logs.getByRole('form', { name: 'Edit entry' }).getByLabel('Edit intelligence')).toHaveValue('First content, improved');
  });
});
