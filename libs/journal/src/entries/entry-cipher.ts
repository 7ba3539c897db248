import type { JournalEntry } from '@vault/contracts';
import type { EntryRow } from '../schema/entries.table.js';
import { openText, seal } from '../crypto/field-cipher.js';

export interface EntryText {
  title?: string;
  content: string;
}

/** An entry's text sealed for its row: each field bound to the entry's id and its own name. */
export function sealEntry(key: Buffer, id: string, text: EntryText) {
  return {
    titleCiphertext: text.title ? seal(key, text.title, `${id}:title`) : null,
    contentCiphertext: seal(key, text.content, `${id}:content`),
  };
}

/** A row with its text, as the owner sees it: a row just written with `text` needs no deciphering of what was just sealed (openEntry deciphers a stored one). */
export function writtenEntry(row: Pick<EntryRow, 'id' | 'createdAt' | 'updatedAt'>, text: EntryText): JournalEntry {
  return {
    id: row.id,
    // As sealEntry stores it: an empty title is none.
    ...(text.title ? { title: text.title } : {}),
    content: text.content,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A stored row as the owner sees it. */
export function openEntry(key: Buffer, row: Pick<EntryRow, 'id' | 'titleCiphertext' | 'contentCiphertext' | 'createdAt' | 'updatedAt'>): JournalEntry {
  return writtenEntry(row, {
    ...(row.titleCiphertext ? { title: openText(key, row.titleCiphertext, `${row.id}:title`) } : {}),
    content: openText(key, row.contentCiphertext, `${row.id}:content`),
  });
}
