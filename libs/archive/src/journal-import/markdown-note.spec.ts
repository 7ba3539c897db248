import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { journalMarkdown } from '../archive-layout.js';
import { parseForeignDate } from './foreign-date.js';
import { ArchiveRefusal } from '../archive-refusal.js';
import { fitEntry, type ForeignEntry } from './foreign-entry.js';
import { noteEntry } from './markdown-note.js';

const fileTime = new Date('2024-06-01T12:00:00Z');
const note = (path: string, text: string | Buffer) => noteEntry({ path, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text), modifiedAt: fileTime });

describe('a Markdown note as a journal entry', () => {
  it("reads Vault's own export back as the same entry, keyed by its id", () => {
    const record = {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      title: 'Harbour: "night" shift',
      content: '# Log\nWe met at the *café*.\n\n- [x] done',
      createdAt: '2024-03-05T07:08:09.123Z',
      updatedAt: '2024-03-06T10:00:00.000Z',
    };
    const entry = note('journal/2024/03/2024-03-05-harbour.md', journalMarkdown(record));
    expect(entry).toEqual({
      key: `vault:${record.id}`,
      source: 'journal/2024/03/2024-03-05-harbour.md',
      title: record.title,
      content: record.content,
      createdAt: new Date(record.createdAt),
      updatedAt: new Date(record.updatedAt),
      photos: [],
    });
    const untitled = note('journal/2024/03/2024-03-05-entry.md', journalMarkdown({ ...record, title: null }));
    expect(untitled.title).toBeUndefined();
  });

  it("reads Joplin's and Obsidian's front matter: title, dates with a space, tags as a list or words", () => {
    const joplin = note(
      'Travel/Road trip.md',
      '---\ntitle: Road trip\nupdated: 2023-07-02 18:00:00Z\ncreated: 2023-07-01 08:30:00Z\ntags:\n  - travel\n  - family\n---\n\nDay one on the road.\n',
    );
    expect(joplin).toMatchObject({
      title: 'Road trip',
      content: 'Day one on the road.\n\nTags: travel, family',
      createdAt: new Date('2023-07-01T08:30:00Z'),
      updatedAt: new Date('2023-07-02T18:00:00Z'),
    });
    const obsidian = note('Daily/2023-01-05.md', '---\ndate: 2023-01-05\ntags: "#work meeting"\n---\nStand-up notes');
    expect(obsidian).toMatchObject({ title: undefined, content: 'Stand-up notes\n\nTags: work, meeting', createdAt: new Date('2023-01-05T00:00:00Z') });
  });

  it("titles a note without front matter by its file name and dates it by the file's time", () => {
    const plain = note('Standard Notes/Ideas for the garden.txt', 'Tomatoes\r\nBasil\r\n');
    expect(plain).toMatchObject({ title: 'Ideas for the garden', content: 'Tomatoes\r\nBasil', createdAt: fileTime, updatedAt: fileTime });
    expect(plain.key).toBe(`file:${createHash('sha256').update('Tomatoes\r\nBasil\r\n').digest('hex')}`);
    // A byte-order mark is not text.
    expect(note('a.md', Buffer.from('\uFEFFHello')).content).toBe('Hello');
  });

  it('refuses a file that is not UTF-8, broken front matter and a date that is not one, naming the file', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(ArchiveRefusal);
        return (error as ArchiveRefusal).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(() => note('bad/latin1.md', Buffer.from([0x43, 0x61, 0x66, 0xe9])))).toBe('bad/latin1.md is not UTF-8 text');
    expect(refusal(() => note('a.md', '---\ntitle: [unclosed\n---\ntext'))).toMatch(/^a\.md: its front matter is not valid YAML/);
    expect(refusal(() => note('b.md', '---\n- a list\n---\ntext'))).toBe('b.md: its front matter is not a set of fields');
    expect(refusal(() => note('c.md', '---\ncreated: 2024-02-30\n---\ntext'))).toBe('c.md: created is not a date (2024-02-30)');
    expect(refusal(() => note('d.md', '---\ncreated: yesterday\n---\ntext'))).toBe('d.md: created is not a date (yesterday)');
    // A "billion laughs" of aliases is refused, not expanded.
    const laughs = `---\na: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 60 }, (_, i) => `k${i}: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]`).join('\n')}\n---\nt`;
    expect(refusal(() => note('e.md', laughs))).toMatch(/^e\.md: its front matter is not valid YAML/);
  });
});

describe('dates as exports write them', () => {
  it('reads ISO 8601, a space for the T, a day alone, offsets; refuses the rest', () => {
    expect(parseForeignDate('2024-03-05T07:08:09Z')).toEqual(new Date('2024-03-05T07:08:09Z'));
    expect(parseForeignDate('2024-03-05T07:08:09.123456+01:30')).toEqual(new Date('2024-03-05T05:38:09.123Z'));
    expect(parseForeignDate('2024-03-05 07:08')).toEqual(new Date('2024-03-05T07:08:00Z'));
    expect(parseForeignDate('2024-02-29')).toEqual(new Date('2024-02-29T00:00:00Z'));
    for (const bad of ['2023-02-29', '2024-13-01', '2024-01-01T24:00:00Z', '05/03/2024', '', 'now', 42, null]) expect(parseForeignDate(bad)).toBeUndefined();
  });
});

describe('an entry fitted to the vault', () => {
  const base: ForeignEntry = { key: 'k', source: 's', content: 'text', createdAt: fileTime, updatedAt: fileTime, photos: [] };
  it('cuts a long title, keeping it whole in the text; takes a title alone as the text; skips empty and oversized entries', () => {
    const long = 'T'.repeat(250);
    const fitted = fitEntry({ ...base, title: long });
    expect('entry' in fitted && fitted.entry.title).toBe(`${'T'.repeat(199)}…`);
    expect('entry' in fitted && fitted.entry.content).toBe(`${long}\n\ntext`);
    expect(fitEntry({ ...base, title: 'Only a title', content: '  ' })).toEqual({ entry: { ...base, title: 'Only a title', content: 'Only a title' } });
    expect(fitEntry({ ...base, content: ' \n ' })).toEqual({ skipped: { source: 's', reason: 'it holds no text' } });
    expect(fitEntry({ ...base, content: 'x'.repeat(100_001) })).toEqual({
      skipped: { source: 's', reason: 'its text has 100001 characters, more than the 100000 an entry holds' },
    });
  });
});
