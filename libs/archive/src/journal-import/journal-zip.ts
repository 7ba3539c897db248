import { IMPORT_ENTRIES_MAX, IMPORT_FILES_MAX, PHOTO_MAX_BYTES } from '@vault/contracts';
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { ArchiveRefusal } from '../archive-refusal.js';
import { MANIFEST_JSON, VAULT_JSON } from '../archive-layout.js';
import { openEntry, openZip, readWhole, readZipDirectory } from '../zip-file.js';
import { type DayOneJournal, type DayOneMedia, dayOneEntries } from './day-one.js';
import { type ForeignEntry, type SkippedItem, extensionOf, fitEntry, photoTypeOf } from './foreign-entry.js';
import { noteEntry } from './markdown-note.js';
import { NoteImages } from './note-images.js';

/**
 * The most a file of an import may inflate to, checked against the sizes the
 * zip's directory declares before anything is inflated (yauzl cuts off and
 * refuses a file that inflates past its declared size). A Day One journal of
 * 8,000 entries is some 20 MB of JSON.
 */
export const IMPORT_INFLATE_LIMITS = { dayOneJson: 128 * 1024 * 1024, note: 1024 * 1024, photo: PHOTO_MAX_BYTES };
/**
 * All the files an import reads may inflate to at most this many times the
 * zip's own size (plus a margin): text compresses some ten times, photos
 * hardly at all; a zip whose files overlap to inflate far more is a bomb.
 */
const INFLATION_RATIO_MAX = 40;
const INFLATION_MARGIN = 64 * 1024 * 1024;

const NOTE = /\.(md|markdown|txt)$/i;
/** What an operating system or an editor leaves in a folder: never the owner's notes. */
const LITTER = /(^|\/)(__MACOSX|\.[^/]*)(\/|$)/;

/** What an import will add: its format, the entries as the vault holds them, what is left out, and the photos' bytes. */
export interface JournalZip {
  format: 'day-one' | 'markdown';
  entries: ForeignEntry[];
  skipped: SkippedItem[];
  /** A photo's size and bytes, by its path in the zip. */
  photoSize(file: string): number;
  openPhoto(file: string): Promise<Readable>;
  close(): void;
}

/**
 * Opens another app's journal export and reads all of it before anything is
 * stored: a Day One JSON export (one `<Journal>.json` per journal at the
 * zip's root, with `photos/` and the other media folders), Vault's own
 * export (its `journal/` notes), or a folder of Markdown and text notes.
 * Every limit is checked on the zip's directory first (files, sizes, paths:
 * yauzl refuses `..` and absolute names); anything wrong with the whole
 * file is an ArchiveRefusal naming it.
 */
export async function readJournalZip(path: string, zipBytes: number): Promise<JournalZip> {
  const zip = await openZip(path);
  try {
    const files = await readDirectory(zip);
    const inflated = new Inflation(zipBytes);
    const root = commonFolder([...files.keys()]);
    const at = (name: string) => files.get(root + name);
    const rootJson = [...files.keys()].filter((name) => name.startsWith(root) && !name.slice(root.length).includes('/') && name.endsWith('.json'));
    const vaultExport = at(MANIFEST_JSON) !== undefined && at(VAULT_JSON) !== undefined;

    let read: { format: JournalZip['format']; entries: ForeignEntry[]; skipped: SkippedItem[] };
    if (!vaultExport && rootJson.length > 0) read = { format: 'day-one', ...(await readDayOne(zip, files, root, rootJson, inflated)) };
    else {
      const folder = vaultExport ? `${root}journal/` : root;
      const elsewhere = vaultExport
        ? 'an import adds the journal of a Vault export; RESTORE A VAULT brings back all of it, into an empty vault'
        : 'only Markdown and text notes are imported from a folder of notes';
      read = { format: 'markdown', ...(await readNotes(zip, files, folder, elsewhere, inflated)) };
    }

    if (read.entries.length > IMPORT_ENTRIES_MAX)
      throw new ArchiveRefusal(413, `The export holds ${read.entries.length} entries, more than the ${IMPORT_ENTRIES_MAX} one import adds: split it`);
    const entries: ForeignEntry[] = [];
    const skipped = [...read.skipped];
    for (const entry of read.entries) {
      const fitted = fitEntry(entry);
      if ('entry' in fitted) entries.push(fitted.entry);
      else skipped.push(fitted.skipped);
    }
    for (const entry of entries)
      for (const photo of entry.photos) {
        const size = files.get(photo.file)?.uncompressedSize ?? 0;
        if (size > IMPORT_INFLATE_LIMITS.photo)
          throw new ArchiveRefusal(413, `${photo.file} would inflate to ${size} bytes, over the ${IMPORT_INFLATE_LIMITS.photo} a photo of the vault holds`);
        inflated.add(photo.file, size);
      }
    if (entries.length === 0 && skipped.length === 0)
      throw new ArchiveRefusal(400, 'The zip holds no journal entries: neither a Day One JSON export nor Markdown or text notes');
    return {
      ...read,
      entries,
      skipped,
      photoSize: (file) => files.get(file)?.uncompressedSize ?? 0,
      openPhoto: (file) => openEntry(zip, files.get(file) as Entry),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > IMPORT_FILES_MAX)
    return Promise.reject(new ArchiveRefusal(413, `The zip holds ${zip.entryCount} files, more than the ${IMPORT_FILES_MAX} an import reads`));
  return readZipDirectory(zip, (entry, kept) => {
    const name = entry.fileName;
    // Folders, and what an operating system or an editor leaves beside the notes, are passed over.
    if (name.endsWith('/') || LITTER.test(name)) return false;
    if (kept.has(name)) return new ArchiveRefusal(400, `The zip holds ${name.slice(0, 200)} twice`);
    if (entry.isEncrypted()) return new ArchiveRefusal(400, `${name.slice(0, 200)} is encrypted inside the zip: export it again without a zip password`);
    return true;
  });
}

/** A zip of one folder (as `Zip "Journal"` makes): the folder every file is in, else the root. */
function commonFolder(names: string[]): string {
  const first = names[0]?.split('/');
  if (!first || first.length < 2) return '';
  const folder = `${first[0]}/`;
  return names.every((name) => name.startsWith(folder)) ? folder : '';
}

/** Counts what the import inflates, against the zip's own size. */
class Inflation {
  private total = 0;
  constructor(private readonly zipBytes: number) {}

  add(name: string, size: number): void {
    this.total += size;
    if (this.total > this.zipBytes * INFLATION_RATIO_MAX + INFLATION_MARGIN)
      throw new ArchiveRefusal(
        413,
        `The zip's files would inflate to more than ${INFLATION_RATIO_MAX} times its size (at ${name.slice(0, 200)}): refused as a zip bomb`,
      );
  }
}

async function readDayOne(zip: ZipFile, files: Map<string, Entry>, root: string, names: string[], inflated: Inflation) {
  const journals: DayOneJournal[] = [];
  for (const name of names.sort()) {
    const entry = files.get(name) as Entry;
    const file = name.slice(root.length);
    if (entry.uncompressedSize > IMPORT_INFLATE_LIMITS.dayOneJson)
      throw new ArchiveRefusal(
        413,
        `${file} would inflate to ${entry.uncompressedSize} bytes, over the ${IMPORT_INFLATE_LIMITS.dayOneJson} a journal file can be`,
      );
    inflated.add(name, entry.uncompressedSize);
    const text = utf8(await readWhole(zip, entry), file);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ArchiveRefusal(400, `${file} is not valid JSON (${(error as Error).message.slice(0, 120)})`);
    }
    journals.push({ file, json });
  }
  return dayOneEntries(journals, dayOneMedia(files, root));
}

/** Day One names each media file by its md5, in a folder of its kind: `photos/<md5>.<type>`. */
function dayOneMedia(files: Map<string, Entry>, root: string): DayOneMedia {
  const byMd5 = new Map<string, string[]>();
  for (const name of files.keys()) {
    const match = /^([a-z]+)\/([0-9a-f]{32})\.([a-z0-9]{1,8})$/i.exec(name.slice(root.length));
    if (!match) continue;
    const id = `${match[1]}/${match[2].toLowerCase()}`;
    byMd5.set(id, [...(byMd5.get(id) ?? []), name]);
  }
  return {
    find(folder, md5, type) {
      const found = byMd5.get(`${folder}/${md5}`);
      if (!found) return undefined;
      return found.find((name) => type && name.toLowerCase().endsWith(`.${type}`)) ?? found[0];
    },
  };
}

async function readNotes(zip: ZipFile, files: Map<string, Entry>, folder: string, elsewhere: string, inflated: Inflation) {
  const entries: ForeignEntry[] = [];
  const skipped: SkippedItem[] = [];
  const images = new NoteImages(folder, files.keys());
  const others: string[] = [];
  for (const [name, entry] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!name.startsWith(folder) || !NOTE.test(name)) {
      others.push(name);
      continue;
    }
    if (entry.uncompressedSize > IMPORT_INFLATE_LIMITS.note) {
      skipped.push({ source: name, reason: `it is ${entry.uncompressedSize} bytes, more text than an entry holds` });
      continue;
    }
    if (entries.length >= IMPORT_ENTRIES_MAX)
      throw new ArchiveRefusal(413, `The zip holds more than the ${IMPORT_ENTRIES_MAX} notes one import adds: split it`);
    inflated.add(name, entry.uncompressedSize);
    entries.push(noteEntry({ path: name, bytes: await readWhole(zip, entry), modifiedAt: entry.getLastModDate() }, images));
  }
  // The files no note reads or shows, by kind and reason: `2 .png files: no note shows them`.
  const counts = new Map<string, { kind: string; unshownPhoto: boolean; count: number }>();
  for (const name of others) {
    if (images.isLinked(name)) continue;
    const kind = extensionOf(name).toLowerCase() || 'other';
    const unshownPhoto = name.startsWith(folder) && photoTypeOf(name) !== undefined;
    const group = counts.get(`${kind} ${unshownPhoto}`) ?? { kind, unshownPhoto, count: 0 };
    group.count += 1;
    counts.set(`${kind} ${unshownPhoto}`, group);
  }
  for (const { kind, unshownPhoto, count } of counts.values()) {
    const reason = unshownPhoto ? `no note shows ${count === 1 ? 'it' : 'them'}` : elsewhere;
    skipped.push({ source: `${count} .${kind} file${count === 1 ? '' : 's'}`, reason });
  }
  return { entries, skipped };
}

function utf8(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ArchiveRefusal(400, `${file} is not UTF-8 text`);
  }
}
