// Spec 2.9 (journal entries), 5 (journal rules) and 8 (journal toasts).
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('journal', () => {
  test('create "Operation Dawn" with two lines, edit, cancel, save, delete', async ({ page, owner, snapshot }) => {
    await signInByApi(page, owner, '/journal');
    await expect(page.getByRole('heading', { level: 1, name: 'Intelligence Vault' })).toBeVisible();

    const form = panel(page, 'NEW INTELLIGENCE');
    const store = form.getByRole('button', { name: 'Encrypt & Store' });
    await expect(store).toBeDisabled();
    await form.getByLabel('Intelligence').fill('   ');
    await expect(store).toBeDisabled();
    await form.getByLabel('Title (optional)').fill('  Operation Dawn  ');
    await form.getByLabel('Intelligence').fill('line one\nline two');
    await store.click();
    await expect(toasts(page)).toContainText('Intelligence Logged');
    await expect(toasts(page)).toContainText('Entry encrypted and stored securely');

    const logs = panel(page, 'INTELLIGENCE LOGS');
    const item = logs.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Operation Dawn', exact: true }) });
    await expect(item).toHaveCount(1);
    // Markdown with every line break kept: the two lines on two lines.
    const content = item.locator('.entry-markdown');
    await expect(content).toHaveText('line one\nline two', { useInnerText: true });
    await expect(content.locator('br')).toHaveCount(1);
    await expect(item).not.toContainText('(Updated:');
    await snapshot('journal-entry');

    // Edit, then cancel: nothing changes.
    await item.getByRole('button', { name: 'Edit Operation Dawn' }).click();
    const editor = logs.getByRole('form', { name: 'Edit entry' });
    await editor.getByLabel('Edit intelligence').fill('scratch that');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await expect(editor).toHaveCount(0);
    await expect(content).toHaveText('line one\nline two', { useInnerText: true });

    // Edit and save.
    await item.getByRole('button', { name: 'Edit Operation Dawn' }).click();
    await editor.getByLabel('Edit intelligence').fill('line one\nline two\nline three');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toasts(page)).toContainText('Entry Updated');
    await expect(toasts(page)).toContainText('Intelligence log updated successfully');
    await expect(item.locator('.entry-markdown')).toHaveText('line one\nline two\nline three', { useInnerText: true });
    await expect(item).toContainText('(Updated:');

    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalOverflow(page);
    await snapshot('journal-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The dashboard counts it.
    const count = await page.request.get('/api/journal/count');
    expect(count.status()).toBe(200);
    expect((await count.json()).count).toBeGreaterThanOrEqual(1);

    // Delete.
    await item.getByRole('button', { name: 'Delete Operation Dawn' }).click();
    await expect(toasts(page)).toContainText('Entry Deleted');
    await expect(toasts(page)).toContainText('Intelligence log securely erased');
    await expect(item).toHaveCount(0);
  });
});
