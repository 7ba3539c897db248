import { IMPORT_ENTRIES_MAX, JOURNAL_CONTENT_MAX, TITLE_MAX } from '@vault/contracts';
import { ArchiveRefusal } from '../archive-refusal.js';

/** A photo an entry of another app holds, as a file of the uploaded archive. */
export interface ForeignPhoto {
  /** Its path in the archive. */
  file: string;
  contentType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
}

/** The photo types the vault keeps, by a file's extension. */
const PHOTO_TYPES: Record<string, ForeignPhoto['contentType']> = {
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** A file's extension, upper case (`HEIC`), as the summary names a kind of file. */
export function extensionOf(file: string): string {
  return /\.([a-z0-9]{1,8})$/i.exec(file)?.[1]?.toUpperCase() ?? '';
}

/** The photo type of a file by its extension, or undefined for one the vault does not keep. */
export function photoTypeOf(file: string): ForeignPhoto['contentType'] | undefined {
  return PHOTO_TYPES[extensionOf(file).toLowerCase()];
}

/** The line that stands in an entry's text for its `n`th photo, kept in the photo vault. */
export function photoPlaceholder(n: number): string {
  return `*[photo ${n}, in the photo vault]*`;
}

/**
 * One entry of another app's export, as the vault will store it. `key`
 * names it in its source for good (Day One's entry id, a note's own id, or
 * the SHA-256 of a file's bytes): importing the same export twice finds the
 * key already there and adds nothing.
 */
export interface ForeignEntry {
  key: string;
  /** Where it came from, for the summary's lines: `Travel.json, entry 12`, `notes/a.md`. */
  source: string;
  title?: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
  photos: ForeignPhoto[];
}

/** The refusal of an export holding more entries than one import adds. */
export function tooManyEntries(count: number): ArchiveRefusal {
  return new ArchiveRefusal(413, `The export holds ${count} entries, more than the ${IMPORT_ENTRIES_MAX} one import adds: split it`);
}

/** What an import leaves out, and why, in the owner's words. */
export interface SkippedItem {
  source: string;
  reason: string;
}

/**
 * The entry as the vault can hold it, or the reason it cannot: a title is
 * cut to the vault's length (its whole text stays in the content's first
 * line), an empty entry is skipped, one longer than the vault holds too.
 */
export function fitEntry(entry: ForeignEntry): { entry: ForeignEntry } | { skipped: SkippedItem } {
  let { title, content } = entry;
  title = title?.trim() || undefined;
  if (title && title.length > TITLE_MAX) {
    content = `${title}\n\n${content}`;
    title = `${cut(title, TITLE_MAX - 1)}…`;
  }
  if (content.trim().length === 0) {
    if (!title) return { skipped: { source: entry.source, reason: 'it holds no text' } };
    // A title alone: the vault's entries need content, so the title is the content too.
    content = title;
  }
  if (content.length > JOURNAL_CONTENT_MAX) {
    return { skipped: { source: entry.source, reason: `its text has ${content.length} characters, more than the ${JOURNAL_CONTENT_MAX} an entry holds` } };
  }
  return { entry: { ...entry, title, content } };
}

/** At most `max` UTF-16 units of `text` (as the contracts count a length), never half of a character outside the BMP. */
function cut(text: string, max: number): string {
  let kept = '';
  for (const character of text) {
    if (kept.length + character.length > max) break;
    kept += character;
  }
  return kept;
}
