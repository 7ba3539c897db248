import { describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { type EntryText, openEntry, sealEntry, writtenEntry } from './entry-cipher.js';

const key = randomBytes(32);

/** A row as the insert returns it: the sealed text and its times. */
function stored(text: EntryText) {
  const id = randomUUID();
  const at = new Date('2026-12-02T08:30:00.123Z');
  return { id, ...sealEntry(key, id, text), createdAt: at, updatedAt: new Date(at.getTime() + 1000) };
}

describe('writtenEntry', () => {
  it.each<[string, EntryText]>([
    ['with a title', { title: 'Field note', content: 'What the day held\nsecond line' }],
    ['without a title', { content: 'Only text' }],
    ['with an empty title, which is stored as none', { title: '', content: 'x' }],
    ['in any script', { title: 'Ψ 日記 🦸', content: 'é\u0301 \u{1F600}' }],
  ])('answers what opening the written row answers, %s', (_, text) => {
    const row = stored(text);
    expect(writtenEntry(row, text)).toEqual(openEntry(key, row));
  });
});
