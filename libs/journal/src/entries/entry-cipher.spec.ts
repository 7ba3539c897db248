import { describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { FORMAT, seal } from '../crypto/field-cipher.js';
import { type EntryText, openEntry, openEntryText, sealEntry, writtenEntry } from './entry-cipher.js';

const key = randomBytes(32);
const at = new Date('2026-12-02T08:30:00.123Z');

/** A row as the insert returns it: the sealed text and its times. */
function stored(text: EntryText) {
  const id = randomUUID();
  return { id, ...sealEntry(key, id, text), createdAt: at, updatedAt: new Date(at.getTime() + 1000) };
}

/** A row as vaults sealed it before one value held the whole text: a value a field, each bound to its field's name. */
function storedAsBefore(text: EntryText) {
  const id = randomUUID();
  return {
    id,
    titleCiphertext: text.title ? seal(key, text.title, `${id}:title`) : null,
    contentCiphertext: seal(key, text.content, `${id}:content`),
    createdAt: at,
    updatedAt: at,
  };
}

const TEXTS: [string, EntryText][] = [
  ['with a title', { title: 'Field note', content: 'What the day held\nsecond line' }],
  ['without a title', { content: 'Only text' }],
  ['with an empty title, which is stored as none', { title: '', content: 'x' }],
  ['in any script', { title: 'Ψ 日記 🦸', content: 'é\u0301 \u{1F600}' }],
];

describe('writtenEntry', () => {
  it.each(TEXTS)('answers what opening the written row answers, %s', (_, text) => {
    const row = stored(text);
    expect(writtenEntry(row, text)).toEqual(openEntry(key, row));
  });
});

describe('sealEntry and openEntryText', () => {
  it.each(TEXTS)('seal the title and content in one value and open them as written, %s', (_, text) => {
    const row = stored(text);
    expect(row.titleCiphertext).toBeNull();
    expect(row.contentCiphertext[0]).toBe(FORMAT.entryText);
    expect(openEntryText(key, row)).toEqual(text.title ? text : { content: text.content });
  });

  it.each(TEXTS)('open a row sealed a field a value, as vaults wrote them before, %s', (_, text) => {
    expect(openEntryText(key, storedAsBefore(text))).toEqual(text.title ? text : { content: text.content });
  });

  it('refuses a sealed text moved to another entry, or relabelled as a field of the earlier layout', () => {
    const row = stored({ title: 'Field note', content: 'What the day held' });
    expect(() => openEntryText(key, { ...row, id: randomUUID() })).toThrow();
    const relabelled = Buffer.from(row.contentCiphertext);
    relabelled[0] = FORMAT.value;
    expect(() => openEntryText(key, { ...row, contentCiphertext: relabelled })).toThrow();
  });

  it('refuses a sealed text whose title would run past its end', () => {
    const id = randomUUID();
    const plaintext = Buffer.alloc(8);
    plaintext.writeUInt32BE(100, 0);
    const contentCiphertext = seal(key, plaintext, `${id}:entry`, FORMAT.entryText);
    expect(() => openEntryText(key, { id, titleCiphertext: null, contentCiphertext })).toThrow(/title/);
  });

  it('gives every value its own IV, past the pool of IVs drawn at once', () => {
    const ivs = new Set(Array.from({ length: 1000 }, () => stored({ content: 'same text' }).contentCiphertext.subarray(1, 13).toString('hex')));
    expect(ivs.size).toBe(1000);
  });
});
