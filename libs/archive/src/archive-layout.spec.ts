import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { ARCHIVE_NAME, JournalPaths, journalMarkdown, photoPath, slugOf } from './archive-layout.js';

const entry = (over: Partial<{ id: string; title: string | null; content: string; createdAt: string; updatedAt: string }> = {}) => ({
  id: '0b9f3c1e-7d1a-4c55-9a43-1d2e3f4a5b6c',
  title: 'Operation Dawn',
  content: 'line one\nline two',
  createdAt: '2026-03-05T22:10:00.000Z',
  updatedAt: '2026-03-06T08:00:00.000Z',
  ...over,
});

describe('archive layout', () => {
  it('slugs titles of any script into safe file names, and untitled entries as "entry"', () => {
    expect(slugOf('Operation Dawn: Phase II!')).toBe('operation-dawn-phase-ii');
    expect(slugOf('日本語のメモ 🗝️')).toBe('日本語のメモ');
    expect(slugOf('../../etc/passwd')).toBe('etc-passwd');
    expect(slugOf(null)).toBe('entry');
    expect(slugOf('🗝️')).toBe('entry');
    expect([...slugOf('é'.repeat(100))]).toHaveLength(60);
  });

  it('names each entry by its creation day, and a second of the same day and title with -2', () => {
    const paths = new JournalPaths();
    expect(paths.next(entry())).toBe('journal/2026/03/2026-03-05-operation-dawn.md');
    expect(paths.next(entry({ id: 'other' }))).toBe('journal/2026/03/2026-03-05-operation-dawn-2.md');
    expect(paths.next(entry({ title: null }))).toBe('journal/2026/03/2026-03-05-entry.md');
    for (const name of ['journal/2026/03/2026-03-05-operation-dawn-2.md', photoPath({ id: entry().id, contentType: 'image/webp' }), 'vault.json'])
      expect(ARCHIVE_NAME.test(name)).toBe(true);
    for (const name of ['../vault.json', 'photos/x.exe', 'journal/../../x.md', 'notes.txt']) expect(ARCHIVE_NAME.test(name)).toBe(false);
  });

  it('writes a note any Markdown reader opens: front matter that YAML reads back exactly, then the text as written', () => {
    const tricky = entry({ title: 'Title: with "quotes" and # hash\nand a break', content: '---\nnot front matter\n' });
    const note = journalMarkdown(tricky);
    const [, front, body] = note.split(/^---\n|\n---\n\n/);
    expect(parse(front)).toEqual({ title: tricky.title, created: tricky.createdAt, updated: tricky.updatedAt, id: tricky.id });
    expect(body).toBe('---\nnot front matter\n');
    expect(journalMarkdown(entry({ title: null }))).toBe(
      `---\ncreated: 2026-03-05T22:10:00.000Z\nupdated: 2026-03-06T08:00:00.000Z\nid: ${entry().id}\n---\n\nline one\nline two\n`,
    );
  });
});
