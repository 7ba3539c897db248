import { z } from 'zod';
import { ARCHIVE_PAGE_RECORDS } from './archive.contracts.js';
import { RecordId, RecordTime, TITLE_MAX, recordNonEmpty } from './fields.js';
import { JOURNAL_CONTENT_MAX } from './journal.contracts.js';
import { PhotoContentType } from './media.contracts.js';
import { defineRpc } from './rpc.js';

/**
 * Importing another app's journal (a Day One JSON export, a zip of Markdown
 * or text notes, Vault's own export's `journal/` folder) into a vault that
 * keeps what it holds: entries are added, never replaced. The gateway reads
 * the file; journal-svc stores the entries, each under an id derived from
 * its key in the source, so the same file imported twice adds nothing the
 * second time; media-svc keeps the photos as if the owner had uploaded them.
 */

/** The most entries one import adds: Day One's largest journals hold a few thousand. */
export const IMPORT_ENTRIES_MAX = 20_000;
/** The most files one zip may hold (entries, photos and whatever else an export carries). */
export const IMPORT_FILES_MAX = 60_000;

/**
 * One entry to add. `key` names it in its source for good (`dayone:<uuid>`,
 * `vault:<id>` for Vault's own export, `file:<sha256>` for any other note):
 * journal-svc turns it into the entry's id, which nobody can compute without
 * this vault's key, so no trace of the source is kept beside the text.
 */
export const ForeignEntryRecord = z.strictObject({
  key: z.string().min(1).max(300),
  title: recordNonEmpty(TITLE_MAX).optional(),
  content: recordNonEmpty(JOURNAL_CONTENT_MAX),
  createdAt: RecordTime,
  updatedAt: RecordTime,
});
export type ForeignEntryRecord = z.infer<typeof ForeignEntryRecord>;

/**
 * The most entries in one AddForeignEntries page. Reading, sealing and
 * inserting an entry allocates about 40 KB that lives as long as its page:
 * pages of 500 outlived two scavenges of the young generation, so they were
 * promoted, and the old generation grew to four times its live size before
 * it was marked (an import of 10,000 entries rose 70 MB; pages of 100, 46 MB,
 * as fast; pages of 20, 50 MB and half as fast).
 */
export const FOREIGN_ENTRIES_PAGE = 100;

/** Adds a page of entries; the answer names the ones that were new (an entry already there, by its key, is left as it is). */
export const AddForeignEntries = defineRpc({
  pattern: 'journal.import.foreign',
  request: z.object({ entries: z.array(ForeignEntryRecord).max(FOREIGN_ENTRIES_PAGE) }),
  response: z.object({ added: z.array(z.object({ key: z.string(), id: RecordId })) }),
  timeoutMs: 30_000,
});

/** Takes an import that failed part-way back: the entries it added go, as deleted entries do. */
export const UndoForeignEntries = defineRpc({
  pattern: 'journal.import.undo',
  request: z.object({ ids: z.array(RecordId).max(ARCHIVE_PAGE_RECORDS) }),
  response: z.object({ removed: z.number() }),
  timeoutMs: 30_000,
});

/**
 * media-svc: the bytes written to a key reserved with ReservePhotoImport
 * become a photo as an upload would (decoded to prove it is only an image,
 * its location data removed), dated `createdAt`.
 */
export const AddForeignPhoto = defineRpc({
  pattern: 'media.import.foreign-photo',
  request: z.object({ key: z.string().max(200), createdAt: RecordTime }),
  response: z.object({ id: RecordId, contentType: PhotoContentType, size: z.number() }),
  timeoutMs: 20_000,
});

/** What the import left out, and why, in the owner's words. */
export const SkippedImportItem = z.object({ source: z.string(), reason: z.string() });

/** The answer of an import: what was added, what was already there, and what was left out. */
export const JournalImportSummary = z.object({
  /** `day-one` or `markdown` (Vault's own export reads as Markdown notes). */
  format: z.enum(['day-one', 'markdown']),
  entries: z.number(),
  alreadyThere: z.number(),
  photos: z.number(),
  /** At most the first 200 things left out; `skippedCount` counts them all. */
  skipped: z.array(SkippedImportItem),
  skippedCount: z.number(),
});
export type JournalImportSummary = z.infer<typeof JournalImportSummary>;

/**
 * Where an import stands, for the dialog to show while the server works: the
 * upload arriving, the file read whole and checked, then its entries and
 * photos stored (counted as they go, the entries already there included),
 * then done or failed. Counts only: never a word of what is imported.
 */
export const JournalImportProgress = z.object({
  stage: z.enum(['uploading', 'reading', 'storing', 'done', 'failed']),
  entries: z.object({ stored: z.number(), total: z.number() }),
  /** The photos of the entries that were new: their total is known once the entries are stored. */
  photos: z.object({ stored: z.number(), total: z.number() }),
});
export type JournalImportProgress = z.infer<typeof JournalImportProgress>;
