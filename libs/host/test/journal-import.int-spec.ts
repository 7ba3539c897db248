import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, dayOneDifferences, dayOneExport, numberedPng, type DayOneExport } from '@vault/testing';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allEntries, exportArchive, importJournal, importJournalWatched, progressGoesForward, unzip, zipOf } from './archive-support.js';
import { OWNER, embeddedConfig, startEmbeddedVault } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the journal and the photo vault hold (rows, and the files of the embedded object store), to show a refused import changed nothing. */
async function holdings(client: ApiClient, dataDir: string) {
  const objects = join(dataDir, 'objects');
  return {
    count: (await client.request('GET', '/api/journal/count')).json.count,
    photos: (await client.request('GET', '/api/photos')).json.length,
    objectFiles: existsSync(objects) ? readdirSync(objects, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length : 0,
  };
}

/** The bytes of every photo of the vault. */
async function photoBytes(client: ApiClient): Promise<string[]> {
  const photos = (await client.request('GET', '/api/photos?limit=500')).json as Array<{ objectPath: string }>;
  const hashes = [];
  for (const photo of photos) {
    const response = await fetch(client.baseUrl + photo.objectPath, { headers: { cookie: client.sessionCookie ?? '', 'x-forwarded-for': client.address } });
    hashes.push(sha256(Buffer.from(await response.arrayBuffer())));
  }
  return hashes.sort();
}

/** A zip whose directory says one file inflates to `size` bytes (its header lies; nothing that large is in it). */
async function zipDeclaring(files: Record<string, Buffer | string>, name: string, size: number): Promise<Buffer> {
  const zip = await zipOf(files);
  // The central directory's record of `name`: its uncompressed size is 24 bytes in.
  const at = zip.lastIndexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02])]), zip.lastIndexOf(Buffer.from(name)));
  zip.writeUInt32LE(size, at + 24);
  return zip;
}

/** A zip with a file's name changed afterwards, to one no zip tool would write (`..`, absolute). */
async function zipRenaming(files: Record<string, string>, from: string, to: string): Promise<Buffer> {
  const zip = await zipOf(files);
  for (let at = zip.indexOf(from); at !== -1; at = zip.indexOf(from, at + 1)) zip.write(to, at, 'latin1');
  return zip;
}

describe('importing another app’s journal, embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-journal-import-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;
  let owner: ApiClient;
  let dayOne: DayOneExport;

  beforeAll(async () => {
    [vault, dayOne] = await Promise.all([startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir })), dayOneExport()]);
    owner = new ApiClient(vault.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
  });

  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a Day One export of 3 journals: every entry with its times, text, title and tags, every photo byte for byte', async () => {
    const before = await owner.request('POST', '/api/journal', { content: 'Written here before the import' });
    expect(before.status).toBe(201);
    // With a progress record, read while it runs (the page's way).
    const { answer, readings, last } = await importJournalWatched(owner, dayOne.zip);
    expect([answer.status, answer.cacheControl]).toEqual([200, 'no-store']);
    expect(readings[0]).toEqual({ stage: 'uploading', entries: { stored: 0, total: 0 }, photos: { stored: 0, total: 0 } });
    expect(progressGoesForward([...readings, last])).toBe(true);
    expect(last).toEqual({ stage: 'done', entries: { stored: 1000, total: 1000 }, photos: { stored: 50, total: 50 } });
    expect(answer.json).toMatchObject({ format: 'day-one', entries: 1000, alreadyThere: 0, photos: 50, skippedCount: dayOne.leftOut });
    expect(answer.json.skipped.map((item: { reason: string }) => item.reason)).toEqual(
      expect.arrayContaining([expect.stringContaining('the vault keeps photos only')]),
    );

    const entries = await allEntries(owner);
    expect(entries).toHaveLength(1001);
    expect(dayOneDifferences(dayOne, entries)).toEqual([]);
    expect(await photoBytes(owner)).toEqual(dayOne.photos.map(sha256).sort());
    // Stored like every entry: found by search.
    const found = await owner.request('POST', '/api/journal/search', { query: '"Entry 777 of the export"' });
    expect(found.json.map((entry: { content: string }) => entry.content)).toEqual([dayOne.entries[776].content]);
  }, 120_000);

  it('knows no progress record it did not make, and refuses a progress header that cannot name one', async () => {
    for (const id of ['not-one-of-its-ids', 'x'.repeat(100)]) {
      const reading = await owner.request('GET', `/api/settings/import-journal/progress/${id}`);
      expect([reading.status, reading.text]).toEqual([404, 'No import has this progress id (it ended over an hour ago, or never began)']);
    }
    const held = await holdings(owner, dataDir);
    const refused = await importJournal(owner, dayOne.zip, { 'x-vault-import-progress': 'x'.repeat(101) });
    expect([refused.status, refused.text]).toEqual([400, 'x-vault-import-progress: must be the id of a progress record']);
    expect(await holdings(owner, dataDir)).toEqual(held);
    // Logged like every refused import, with its size.
    const log = (await owner.request('GET', '/api/logs?limit=5')).json as Array<{ action: string; success: boolean; detail?: string }>;
    expect(log.find((line) => line.action === 'import_journal')).toMatchObject({ success: false, detail: expect.stringMatching(/^\d+ bytes$/) });
    // Another client's session cannot read the progress: it is the owner's.
    const started = await owner.request('POST', '/api/settings/import-journal/progress');
    const stranger = await new ApiClient(vault.url).request('GET', `/api/settings/import-journal/progress/${started.json.id}`);
    expect(stranger.status).toBe(401);
  });

  it('adds nothing when the same export is imported again', async () => {
    const held = await holdings(owner, dataDir);
    const again = await importJournal(owner, dayOne.zip);
    expect([again.status, again.json]).toEqual([200, expect.objectContaining({ entries: 0, alreadyThere: 1000, photos: 0 })]);
    expect(await holdings(owner, dataDir)).toEqual(held);
  }, 120_000);

  it('imports a folder of Markdown notes with front matter (Obsidian, Joplin), the images they show, text notes without, and says what it left out', async () => {
    const photosBefore = await photoBytes(owner);
    const notes = await zipOf({
      // Joplin links a note's images from its _resources folder; Obsidian embeds them by name.
      'Notes/2019/Road trip.md':
        '---\ntitle: Road trip 🚗\ncreated: 2019-07-14T09:30:00+02:00\nupdated: 2019-07-15 10:00:00Z\ntags: [travel, family]\n---\n\n# Day one\n\n- [x] fuel\n- [ ] maps\n\n![the map](../_resources/map%20scan.png "route")\n',
      'Notes/Joplin note.md':
        '---\ntitle: "Quotes: Ωμέγα"\ncreated: 2020-02-29 23:59:59Z\n---\n\n> Le cœur a ses raisons\n\n![[sunset.gif|300]] ![logo](https://example.org/logo.png)\n',
      'Notes/Plain thoughts.txt': 'No front matter at all, just text.\nSecond line.',
      'Notes/_resources/map scan.png': numberedPng(9),
      'Notes/attachments/sunset.gif': numberedPng(10),
      'Notes/_resources/unused.png': numberedPng(11),
      'Notes/_resources/manual.pdf': '%PDF-1.4 not a note',
    });
    const answer = await importJournal(owner, notes);
    expect([answer.status, answer.json]).toEqual([200, expect.objectContaining({ format: 'markdown', entries: 3, photos: 2, skippedCount: 2 })]);
    expect(answer.json.skipped).toEqual([
      { source: '1 .pdf file', reason: 'only Markdown and text notes are imported from a folder of notes' },
      { source: '1 .png file', reason: 'no note shows it' },
    ]);
    expect(await photoBytes(owner)).toEqual([...photosBefore, sha256(numberedPng(9)), sha256(numberedPng(10))].sort());
    const entries = await allEntries(owner);
    expect(entries.find((entry) => entry.title === 'Quotes: Ωμέγα')).toMatchObject({
      content: '> Le cœur a ses raisons\n\n*[photo 1, in the photo vault]* ![logo](https://example.org/logo.png)',
    });
    const trip = entries.find((entry) => entry.title === 'Road trip 🚗');
    expect(trip).toMatchObject({
      content: '# Day one\n\n- [x] fuel\n- [ ] maps\n\n*[photo 1, in the photo vault]*\n\nTags: travel, family',
      createdAt: '2019-07-14T07:30:00.000Z',
      updatedAt: '2019-07-15T10:00:00.000Z',
    });
    expect(entries.find((entry) => entry.title === 'Quotes: Ωμέγα')).toMatchObject({ createdAt: '2020-02-29T23:59:59.000Z' });
    expect(entries.find((entry) => entry.title === 'Plain thoughts')).toMatchObject({
      content: 'No front matter at all, just text.\nSecond line.',
      createdAt: '2023-05-06T07:08:09.000Z',
    });
  });

  it('refuses bad files with a 4xx naming the problem, leaving the vault as it was', async () => {
    const held = await holdings(owner, dataDir);
    expect(held.objectFiles).toBeGreaterThanOrEqual(50);
    const journal = (entries: unknown[]) => JSON.stringify({ metadata: { version: '1.0' }, entries });
    const valid = { uuid: 'A'.repeat(32), creationDate: '2024-03-05T07:08:09Z', text: 'fine' };
    const cases: Array<[string, Buffer, number, RegExp]> = [
      ['not a zip', Buffer.from('%PDF-1.4 this is not a zip at all'), 400, /not a whole zip file/],
      ['an empty body', Buffer.alloc(0), 400, /zip/],
      ['a path out of the zip', await zipRenaming({ 'ZZ/escape.md': 'out' }, 'ZZ/escape.md', '../escape.md'), 400, /outside itself/],
      ['an absolute path', await zipRenaming({ 'ZZZZ/escape.md': 'out' }, 'ZZZZ/escape.md', '/etc/escape.md'), 400, /outside itself/],
      ['broken JSON', await zipOf({ 'Journal.json': '{"entries": [' }), 400, /Journal\.json is not valid JSON/],
      ['not a Day One journal', await zipOf({ 'Journal.json': '{"hello": 1}' }), 400, /not a Day One journal/],
      [
        'an invalid date',
        await zipOf({ 'Journal.json': journal([valid, { ...valid, uuid: 'B'.repeat(32), creationDate: '2023-02-30T10:00:00Z' }]) }),
        400,
        /creationDate is not a date/,
      ],
      ['invalid UTF-8', await zipOf({ 'notes/bad.md': Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x6f]) }), 400, /notes\/bad\.md is not UTF-8/],
      [
        'invalid UTF-8 in JSON',
        await zipOf({ 'Journal.json': Buffer.concat([Buffer.from('{"entries": [{"text": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]) }),
        400,
        /not UTF-8/,
      ],
      [
        '50,000 entries',
        await zipOf({
          'Journal.json': journal(
            Array.from({ length: 50_000 }, (_, i) => ({ uuid: i.toString(16).padStart(32, '0'), creationDate: '2024-03-05T07:08:09Z', text: `entry ${i}` })),
          ),
        }),
        413,
        /50000 entries, more than the 20000/,
      ],
      [
        'a 2 GB photo',
        await zipDeclaring(
          {
            'Journal.json': journal([{ ...valid, photos: [{ identifier: 'C'.repeat(32), md5: 'd'.repeat(32), type: 'png' }] }]),
            [`photos/${'d'.repeat(32)}.png`]: numberedPng(1),
          },
          `photos/${'d'.repeat(32)}.png`,
          2 ** 31,
        ),
        413,
        /would inflate to 2147483648 bytes/,
      ],
      [
        'a photo that does not inflate to the size it declares',
        await zipDeclaring(
          {
            'Journal.json': journal([{ ...valid, photos: [{ identifier: 'E'.repeat(32), md5: 'e'.repeat(32), type: 'png' }] }]),
            [`photos/${'e'.repeat(32)}.png`]: numberedPng(2),
          },
          `photos/${'e'.repeat(32)}.png`,
          numberedPng(2).length + 100,
        ),
        400,
        /does not inflate to the size it declares/,
      ],
      ['a zip bomb', await zipOf({ 'Journal.json': journal([{ ...valid, text: 'a'.repeat(100 * 1024 * 1024) }]) }), 413, /zip bomb/],
    ];
    for (const [what, zip, status, reason] of cases) {
      const answer = await importJournal(owner, zip);
      expect({ what, status: answer.status, text: answer.text }).toEqual({ what, status, text: expect.stringMatching(reason) });
    }
    expect(await holdings(owner, dataDir)).toEqual(held);
    // Each import in the access log with its size, never its content.
    const log = (await owner.request('GET', '/api/logs?limit=50')).json as Array<{ action: string; success: boolean; detail?: string }>;
    const imports = log.filter((line) => line.action === 'import_journal');
    expect(imports.map((line) => line.success)).toEqual(expect.arrayContaining([true, false]));
    expect(imports.map((line) => line.detail)).toContain(
      `${dayOne.zip.length} bytes: 1000 entries added, 0 already there, 50 photos, ${dayOne.leftOut} left out`,
    );
    for (const line of imports) expect(line.detail).toMatch(/^\d+ bytes(: \d+ entries added, \d+ already there, \d+ photos, \d+ left out)?$/);
  }, 120_000);

  it('imports its own export’s journal back as the same entries: nothing added to the vault it came from, all of it into a new one (CLI)', async () => {
    const exported = await exportArchive(owner, { password: OWNER.password });
    expect(exported.status).toBe(200);
    const again = await importJournal(owner, exported.bytes);
    const count = (await holdings(owner, dataDir)).count;
    expect([again.status, again.json]).toEqual([200, expect.objectContaining({ format: 'markdown', entries: 0, alreadyThere: count })]);

    const files = await unzip(exported.bytes);
    const journalOnly = await zipOf(Object.fromEntries([...files].filter(([name]) => name.startsWith('journal/'))));
    const before = await allEntries(owner);
    await vault.close();
    const work = mkdtempSync(join(tmpdir(), 'vault-journal-import-cli-'));
    try {
      writeFileSync(join(work, 'journal.zip'), journalOnly);
      const newVault = join(work, 'vault');
      const run = spawnSync(process.execPath, [join(root, 'apps/vault/dist/cli.js'), 'import-journal', join(work, 'journal.zip')], {
        encoding: 'utf8',
        env: { ...process.env, VAULT_MODE: 'embedded', VAULT_DATA_DIR: newVault, VAULT_OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
        timeout: 180_000,
      });
      expect([run.status, run.stderr, run.stdout]).toEqual([0, expect.any(String), `Imported ${count} entries and 0 photos.\n`]);
      vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: newVault }));
      const other = new ApiClient(vault.url);
      expect((await other.login(OWNER.username, OWNER.password)).status).toBe(200);
      const after = await allEntries(other);
      const shape = (list: typeof before) => list.map(({ id, title, content, createdAt, updatedAt }) => ({ id, title, content, createdAt, updatedAt }));
      expect(shape(after)).toEqual(shape(before));
      const log = (await other.request('GET', '/api/logs?limit=20')).json as Array<{ action: string; ipAddress: string }>;
      expect(log.map((line) => [line.action, line.ipAddress])).toContainEqual(['import_journal', 'local command line']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
