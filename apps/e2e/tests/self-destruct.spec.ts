// Spec 2.4 (PERFECT CELL), 2.14 (farewell page), 8 (its toast): the end of a
// vault, on a vault of its own per mode (started here, destroyed, removed), so
// the shared vaults of the other tests live on.
import type { Page, Response } from '@playwright/test';
import { expect, signInByApi, toasts } from '../support/fixtures.ts';
import type { OwnerAccount } from '../support/modes.ts';
import { withPrivateVault } from '../support/private-vault.ts';
import { api, tag } from '../support/seed.ts';

const DOOMED_OWNER: OwnerAccount = { name: 'Selina Kyle', username: 'selina', password: 'Nine-Lives-e2e-4#q' };
const FAREWELL = `Here lies the mind of ${DOOMED_OWNER.name}`;
const test = withPrivateVault(DOOMED_OWNER, { embedded: 3311, distributed: 3312 });

/** Every document the tabs of the context load, by content type: none may be a bare text answer. */
function watchDocuments(page: Page, documents: string[]): void {
  page.on('response', (response: Response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    documents.push(`${response.status()} ${new URL(response.url()).pathname} ${response.headers()['content-type'] ?? ''}`);
  });
}

test.describe('self-destruct', () => {
  test('after PERFECT CELL: the farewell at every moment, never a text/plain page, and other tabs follow at their next action', async ({
    page,
    context,
    snapshot,
  }) => {
    test.setTimeout(120_000);
    const t = tag();
    const secrets = [`Secret target ${t}`, `Secret journal ${t}`];
    await signInByApi(page, DOOMED_OWNER, '/');
    await api(page.request, 'POST', '/api/targets', { title: secrets[0] });
    await api(page.request, 'POST', '/api/journal', { title: secrets[1], content: 'Only for the owner.' });

    const documents: string[] = [];
    const second = await context.newPage();
    const third = await context.newPage();
    for (const tab of [page, second, third]) watchDocuments(tab, documents);
    await second.goto('/targets');
    await expect(second.getByText(secrets[0])).toBeVisible();
    await third.goto('/journal');
    await expect(third.getByRole('heading', { name: secrets[1] })).toBeVisible();
    await page.goto('/');
    await expect(page.getByText(secrets[0])).toBeVisible();

    // INITIATE, CONFIRM, the final warning accepted.
    await page.getByRole('button', { name: 'SETTINGS' }).click();
    const panel = page.getByRole('dialog', { name: 'VAULT SETTINGS' });
    await panel.getByRole('button', { name: 'INITIATE' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    const confirmed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/settings/self-destruct');
    await panel.getByRole('button', { name: 'CONFIRM' }).click();
    expect((await confirmed).status()).toBe(200);
    // The page shows the farewell as soon as it has read the answer (Playwright may see the answer first).
    await expect(page.getByText(FAREWELL)).toBeVisible({ timeout: 1000 });

    // From then on, every half second for 5 s (past the 3 s redirect):
    // the farewell text, and nothing of the vault.
    for (let i = 0; i <= 10; i++) {
      const seen = await page.locator('body').innerText();
      await snapshot(`farewell-${(i / 2).toFixed(1)}s`);
      expect(seen, `${(i / 2).toFixed(1)} s after the confirmation`).toContain(FAREWELL);
      for (const text of [...secrets, 'COMMAND CENTER', 'TARGETS', 'SETTINGS']) expect(seen).not.toContain(text);
      if (i === 0) await expect(toasts(page)).toContainText('Perfect Cell Initiated');
      await page.waitForTimeout(500);
    }
    await expect(page).toHaveURL('/');
    await page.setViewportSize({ width: 375, height: 812 });
    await snapshot('farewell-375');

    // The second tab, left on the targets screen, marks a target: the farewell page, not "Failed to create target".
    await second.getByLabel('Target Objective').fill('One more');
    await second.getByRole('button', { name: 'Mark Target' }).click();
    await expect(second.getByText(FAREWELL)).toBeVisible();
    await expect(second.getByText(secrets[0])).toHaveCount(0);
    await expect(second.getByText('Failed to create target')).toHaveCount(0);
    // What the page kept on the device (the unsent target, a draft) is erased with the vault.
    expect(await second.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('vault.draft.')))).toEqual([]);

    // The third tab signs out: the farewell page, not the logout endpoint's 410 text.
    third.once('dialog', (dialog) => void dialog.accept());
    await third.getByRole('button', { name: 'Logout' }).click();
    await expect(third.getByText(FAREWELL)).toBeVisible();
    expect(new URL(third.url()).pathname).toBe('/journal');

    // A reload, and the login endpoint typed by hand, are farewell pages too.
    await page.reload();
    await expect(page.getByText(FAREWELL)).toBeVisible();
    const typed = await page.request.get('/api/login', { maxRedirects: 0 });
    expect(typed.status()).toBe(410);

    expect(
      documents.filter((d) => !/ text\/html/.test(d)),
      'documents that were not the web app',
    ).toEqual([]);
    expect(documents.some((d) => d.includes('/api/'))).toBe(false);
  });
});
