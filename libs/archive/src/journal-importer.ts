import { Injectable } from '@nestjs/common';
import {
  ARCHIVE_PAGE_BYTES,
  ARCHIVE_PAGE_RECORDS,
  AddForeignEntries,
  AddForeignPhoto,
  DeletePhoto,
  FOREIGN_ENTRIES_PAGE,
  ReservePhotoImport,
  UndoForeignEntries,
  importReport,
  type ForeignEntryRecord,
  type JournalImportProgress,
  type JournalImportSummary,
} from '@vault/contracts';
import { contextLogger } from '@vault/platform';
import { RpcClient, RpcFailure } from '@vault/transport';
import { rm, stat } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import { dirname } from 'node:path';
import { ArchiveRefusal } from './archive-refusal.js';
import type { ForeignEntry, SkippedItem } from './journal-import/foreign-entry.js';
import { type JournalZip, type PlannedEntry, readJournalZip } from './journal-import/journal-zip.js';
import { writePhotoTarget } from './photo-target.js';
import { spoolArchive, type SpoolOptions } from './spool.js';

/** Told where an import stands as it goes (the gateway passes it on to the page). */
export type ImportProgressListener = (progress: JournalImportProgress) => void;

/** The summary names this many things left out; it counts them all. */
const SKIPPED_LISTED = 200;

/**
 * Imports another app's journal into this vault, adding to what it holds:
 * the upload is spooled to a private file and read whole first
 * (journal-import/journal-zip.ts: any problem with it refuses the import
 * before anything is stored; what is kept of each entry is its key, times
 * and photos, not its text); then the entries are read from the file again
 * as journal-svc adds them a page at a time (an entry already imported, by
 * its key, is left as it is) and
 * media-svc keeps the photos of the entries that were new, as uploads. A
 * failure part-way takes back everything this import added.
 */
@Injectable()
export class JournalImporter {
  private readonly logger = contextLogger(JournalImporter.name);
  private running = false;

  constructor(private readonly rpc: RpcClient) {}

  async import(source: SpoolOptions, onProgress: ImportProgressListener = () => undefined): Promise<JournalImportSummary> {
    if (this.running) throw new ArchiveRefusal(409, 'An import is already running');
    this.running = true;
    let spooled: string | undefined;
    try {
      spooled = await spoolArchive(source);
      onProgress({ stage: 'reading', entries: { stored: 0, total: 0 }, photos: { stored: 0, total: 0 } });
      const zip = await readJournalZip(spooled, (await stat(spooled)).size);
      try {
        return await this.store(zip, onProgress);
      } finally {
        zip.close();
      }
    } finally {
      this.running = false;
      if (spooled) await rm(dirname(spooled), { recursive: true, force: true });
    }
  }

  private async store(zip: JournalZip, onProgress: ImportProgressListener): Promise<JournalImportSummary> {
    const skipped: SkippedItem[] = [...zip.skipped];
    const added = new Map<string, string>();
    const photoIds: string[] = [];
    const entries = { stored: 0, total: zip.entries.length };
    const photos = { stored: 0, total: 0 };
    const tell = (stage: JournalImportProgress['stage']) => onProgress({ stage, entries: { ...entries }, photos: { ...photos } });
    try {
      tell('storing');
      for await (const page of pages(zip.readEntries())) {
        const answer = await this.rpc.send(AddForeignEntries, { entries: page.map(toRecord) });
        for (const { key, id } of answer.added) added.set(key, id);
        entries.stored += page.length;
        tell('storing');
      }
      const toKeep = photosOfNew(zip.entries, added);
      photos.total = toKeep.length;
      tell('storing');
      for (const { file, entry } of toKeep) {
        const id = await this.storePhoto(zip, file, entry, skipped);
        if (id) photoIds.push(id);
        photos.stored += 1;
        tell('storing');
      }
    } catch (error) {
      await this.undo([...added.values()], photoIds);
      throw error;
    }
    tell('done');
    return {
      format: zip.format,
      entries: added.size,
      alreadyThere: zip.entries.length - added.size,
      photos: photoIds.length,
      skipped: skipped.slice(0, SKIPPED_LISTED),
      skippedCount: skipped.length,
    };
  }

  /** The photo's id, or undefined when media-svc refuses its bytes (not an image it keeps): that is noted, not fatal. */
  private async storePhoto(zip: JournalZip, file: string, entry: PlannedEntry, skipped: SkippedItem[]): Promise<string | undefined> {
    const slot = await this.rpc.send(ReservePhotoImport, {});
    await writePhotoTarget(slot.target, zip.photo(file));
    try {
      return (await this.rpc.send(AddForeignPhoto, { key: slot.key, createdAt: entry.createdAt.toISOString() })).id;
    } catch (error) {
      if (error instanceof RpcFailure && (error.status === 413 || error.status === 415)) {
        skipped.push({ source: `${entry.source}, ${file}`, reason: `the photo was not kept: ${error.message}` });
        return undefined;
      }
      throw error;
    }
  }

  /** Everything this import added goes again; what cannot is logged and named. */
  private async undo(entryIds: string[], photoIds: string[]): Promise<void> {
    const failed: string[] = [];
    for (let i = 0; i < entryIds.length; i += ARCHIVE_PAGE_RECORDS) {
      await this.rpc.send(UndoForeignEntries, { ids: entryIds.slice(i, i + ARCHIVE_PAGE_RECORDS) }).catch(() => failed.push('entries'));
    }
    for (const id of photoIds) await this.rpc.send(DeletePhoto, { id }).catch(() => failed.push(`photo ${id}`));
    if (failed.length > 0) this.logger.error(`A failed journal import could not be taken back in full (${[...new Set(failed)].join(', ')})`);
  }
}

/** The photos of the entries this import added, each file once (Day One shares a photo between entries), with the first entry showing it. */
function photosOfNew(entries: PlannedEntry[], added: Map<string, string>): Array<{ file: string; entry: PlannedEntry }> {
  const kept = new Map<string, PlannedEntry>();
  for (const entry of entries) {
    if (!added.has(entry.key)) continue;
    for (const photo of entry.photos) if (!kept.has(photo.file)) kept.set(photo.file, entry);
  }
  return [...kept].map(([file, entry]) => ({ file, entry }));
}

function toRecord(entry: ForeignEntry): ForeignEntryRecord {
  return {
    key: entry.key,
    ...(entry.title ? { title: entry.title } : {}),
    content: entry.content,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

/** Entries in pages that fit one message, by count and by their JSON's bytes (an entry alone always fits: its text is bounded). */
async function* pages(entries: AsyncIterable<ForeignEntry>): AsyncGenerator<ForeignEntry[]> {
  let page: ForeignEntry[] = [];
  let bytes = 0;
  for await (const entry of entries) {
    const size = Buffer.byteLength(JSON.stringify(toRecord(entry)));
    if (page.length > 0 && (page.length >= FOREIGN_ENTRIES_PAGE || bytes + size > ARCHIVE_PAGE_BYTES * 2)) {
      yield page;
      page = [];
      bytes = 0;
    }
    page.push(entry);
    bytes += size;
  }
  if (page.length > 0) yield page;
}

/** The summary as a command prints it: the sentence, then each thing left out on a line of its own. */
export function importReportLines(summary: JournalImportSummary): string {
  const leftOut = summary.skipped.map((item) => `  left out: ${item.source}: ${item.reason}\n`).join('');
  const more = summary.skippedCount > summary.skipped.length ? `  and ${summary.skippedCount - summary.skipped.length} more\n` : '';
  return `${importReport(summary)}\n${leftOut}${more}`;
}

/**
 * What the access log says of an import: its size in bytes and, once stored,
 * how many entries and photos it added. Counts only, never a word of it.
 */
export function importDetail(bytes: number, summary?: JournalImportSummary): string {
  const size = `${bytes} bytes`;
  if (!summary) return size;
  return `${size}: ${summary.entries} entries added, ${summary.alreadyThere} already there, ${summary.photos} photos, ${summary.skippedCount} left out`;
}

/** The stream as it comes, and how many bytes of it have passed so far. */
export function countedBytes(source: Readable): { stream: Readable; bytes: () => number } {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // A failed upload (the client gone) fails the stream, and so whoever reads it.
  pipeline(source, stream, () => undefined);
  return { stream, bytes: () => bytes };
}
