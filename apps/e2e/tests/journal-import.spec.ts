// Issue 35: another app's journal imported from the settings panel (IMPORT
// JOURNAL): a Day One JSON export of 3 journals, 1,000 entries and 50 photos,
// on a vault of its own per mode (the shared vaults' lists stay as their
// tests expect). Every entry's times and text and every photo's bytes are
// compared with the export; a second import adds nothing.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dayOneDifferences, dayOneExport, type StoredEntry } from '@vault/testing/day-one-export';
import { zipOf } from '@vault/testing/zip-files';
import { expect, signInByApi } from '../support/fixtures.ts';
import type { OwnerAccount } from '../support/modes.ts';
import { withPrivateVault } from '../support/private-vault.ts';
import { api, tag } from '../support/seed.ts';

const OWNER: OwnerAccount = { name: 'Diana Prince', username: 'diana', password: 'Themyscira-e2e-7#w' };
const test = withPrivateVault(OWNER, { embedded: 3341, distributed: 3342 });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test.describe('journal import', () => {
  test('a Day One export through IMPORT JOURNAL: 1,000 entries and 50 photos, as they were; a second import adds nothing', async ({
    page,
    snapshot,
  }, testInfo) => {
    test.setTimeout(240_000);
    const exported = await dayOneExport();
    const file = join(mkdtempSync(join(tmpdir(), 'vault-e2e-import-')), 'Day One Export.zip');
    writeFileSync(file, exported.zip);

    await page.setViewportSize({ width: 1280, height: 800 });
    await signInByApi(page, OWNER, '/');
    await page.getByRole('button', { name: 'SETTINGS' }).click();
    const settings = page.getByRole('dialog', { name: 'VAULT SETTINGS' });
    await settings.locator('summary', { hasText: 'IMPORT JOURNAL' }).click();
    const start = settings.getByRole('button', { name: 'IMPORT', exact: true });
    await expect(start).toBeDisabled();
    await settings.getByLabel('Export file (.zip)').setInputFiles(file);

    // The answer held until the server's count is on screen: a quick machine stores the 50 photos
    // between two of the page's reads of the count (every 400 ms), and the answer would replace it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/settings/import-journal', async (route) => {
      // Sent on by the test, with the page's headers and the file's bytes (Chromium does not hand a file's body to the route).
      const response = await route.fetch({ postData: exported.zip });
      await held;
      await route.fulfill({ response });
    });
    const started = Date.now();
    await start.click();
    await expect(settings.getByRole('button', { name: 'IMPORTING...' })).toBeVisible();
    // The server's count while it stores: entries, then photos, of their totals.
    await expect(settings.getByRole('status').filter({ hasText: /^STORING\.\.\. 1000 of 1000 entries, \d+ of 50 photos$/ })).toBeVisible({
      timeout: 120_000,
    });
    await snapshot('journal-import-storing', { fullPage: false });
    // Released, the route passes the answers on as they come, the second import's too.
    release();
    const summary = settings.getByRole('status').filter({ hasText: 'Imported' });
    await expect(summary).toContainText(`Imported 1000 entries and 50 photos; ${exported.leftOut} items left out.`, { timeout: 120_000 });
    const seconds = (Date.now() - started) / 1000;
    testInfo.annotations.push({ type: 'import seconds', description: seconds.toFixed(1) });
    process.stdout.write(`[journal import] ${testInfo.project.name}: 1,000 entries and 50 photos through the page in ${seconds.toFixed(1)} s\n`);
    await expect(settings.getByRole('list', { name: 'Left out' })).toContainText('the vault keeps photos only');
    // The viewport only: a full-page capture resizes the page for a moment, and the header's
    // SETTINGS panel (desktop widths only) closes with it.
    await snapshot('journal-import-summary', { fullPage: false });

    // What the vault holds now, compared with the export.
    const entries: StoredEntry[] = [];
    for (let offset = 0; ; offset += 500) {
      const page_ = await api<StoredEntry[]>(page.request, 'GET', `/api/journal?limit=500&offset=${offset}`);
      entries.push(...page_);
      if (page_.length < 500) break;
    }
    expect(entries).toHaveLength(1000);
    expect(dayOneDifferences(exported, entries)).toEqual([]);
    const photos = await api<Array<{ objectPath: string }>>(page.request, 'GET', '/api/photos?limit=500');
    const hashes = [];
    for (const photo of photos) hashes.push(sha256(await (await page.request.get(photo.objectPath)).body()));
    expect(hashes.sort()).toEqual(exported.photos.map(sha256).sort());

    // The same file again: nothing added.
    await settings.getByLabel('Export file (.zip)').setInputFiles(file);
    await start.click();
    await expect(summary).toContainText('Imported 0 entries and 0 photos; 1000 entries were already in the vault', { timeout: 120_000 });
    expect((await api<{ count: number }>(page.request, 'GET', '/api/journal/count')).count).toBe(1000);

    // The journal shows them, newest first, and finds them.
    await page.keyboard.press('Escape');
    await page.goto('/journal');
    const newest = exported.entries.findLast((entry) => entry.title)!;
    await expect(page.getByRole('heading', { name: newest.title })).toBeVisible();
    await snapshot('journal-after-import', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.getByRole('heading', { name: newest.title })).toBeVisible();
    await snapshot('journal-after-import-375', { fullPage: false });
  });

  test('on the journal screen, at 1280 and 375 px: a folder of Markdown notes, the upload held to show its progress, then the summary', async ({
    page,
    snapshot,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInByApi(page, OWNER, '/');
    for (const width of [1280, 375]) {
      const t = tag();
      const notes = await zipOf({
        [`Obsidian/Trips/Road trip ${t}.md`]: `---\ntitle: Road trip ${t} 🚗\ncreated: 2019-07-14T09:30:00+02:00\nupdated: 2019-07-15 10:00:00Z\ntags: [travel, family]\n---\n\n## Day one\n\n- [x] fuel\n- [ ] maps\n`,
        [`Obsidian/Quote ${t}.md`]: `---\ntitle: "Quote ${t}: Ωμέγα"\ndate: 2020-02-29\n---\n\n> Le cœur a ses raisons ${t}\n`,
        [`Obsidian/Plain ${t}.txt`]: `No front matter, just text ${t}.`,
        'Obsidian/attachments/map.png': Buffer.from('not really a picture'),
      });
      const file = join(mkdtempSync(join(tmpdir(), 'vault-e2e-notes-')), `Notes ${t}.zip`);
      writeFileSync(file, notes);

      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.goto('/journal');
      const section = page.locator('details').filter({ has: page.locator('summary', { hasText: 'IMPORT JOURNAL' }) });
      await section.locator('summary').click();
      await section.getByLabel('Export file (.zip)').setInputFiles(file);
      await section.scrollIntoViewIfNeeded();
      await snapshot(`journal-import-dialog-${width}`, { fullPage: false });

      // The request held until the progress is on screen (three notes are stored faster than the page reads the count).
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/settings/import-journal', async (route) => {
        await held;
        await route.continue();
      });
      await section.getByRole('button', { name: 'IMPORT', exact: true }).click();
      await expect(section.getByRole('button', { name: 'IMPORTING...' })).toBeVisible();
      await expect(section.getByText(/^(UPLOADING\.\.\.|STORING ENTRIES AND PHOTOS\.\.\.)/)).toBeVisible();
      await snapshot(`journal-import-progress-${width}`, { fullPage: false });
      release();

      const summary = section.getByRole('status').filter({ hasText: 'Imported' });
      await expect(summary).toContainText('Imported 3 entries and 0 photos; 1 item left out.');
      await expect(section.getByRole('list', { name: 'Left out' })).toContainText('1 .png file: no note shows it');
      await snapshot(`journal-import-summary-${width}`, { fullPage: false });
      await page.unrouteAll({ behavior: 'ignoreErrors' });

      // Older than the Day One entries above: found by the tag every note holds.
      const entries = await api<StoredEntry[]>(page.request, 'POST', '/api/journal/search', { query: t });
      expect(entries).toHaveLength(3);
      expect(entries.find((entry) => entry.title === `Road trip ${t} 🚗`)).toMatchObject({
        content: '## Day one\n\n- [x] fuel\n- [ ] maps\n\nTags: travel, family',
        createdAt: '2019-07-14T07:30:00.000Z',
        updatedAt: '2019-07-15T10:00:00.000Z',
      });
      expect(entries.find((entry) => entry.title === `Quote ${t}: Ωμέγα`)).toMatchObject({ createdAt: '2020-02-29T00:00:00.000Z' });
      expect(entries.find((entry) => entry.title === `Plain ${t}`)).toMatchObject({
        content: `No front matter, just text ${t}.`,
        createdAt: '2023-05-06T07:08:09.000Z',
      });
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    }
  });
});
