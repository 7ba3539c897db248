import { IMPORT_ENTRIES_MAX, IMPORT_FILES_MAX, PHOTO_MAX_BYTES } from '@vault/contracts';
import type { Entry, ZipFile } from 'yauzl';
import { ArchiveRefusal } from '../archive-refusal.js';
import type { EntryBytes } from '../entry-bytes.js';
import { MANIFEST_JSON, VAULT_JSON } from '../archive-layout.js';
import { openEntry, openZip, readWhole, readZipDirectory } from '../zip-file.js';
import { type DayOneMedia, dayOneExport } from './day-one.js';
import { type ForeignEntry, type SkippedItem, extensionOf, fitEntry, photoTypeOf, tooManyEntries } from './foreign-entry.js';
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

/** An entry the import will add, without its text: what is kept of it between reading the export and storing it. */
export type PlannedEntry = Omit<ForeignEntry, 'title' | 'content'>;

/**
 * What an import will add: its format, its entries (without their text),
 * what is left out, the entries again whole as they are stored, and the
 * photos' bytes.
 */
export interface JournalZip {
  format: 'day-one' | 'markdown';
  entries: PlannedEntry[];
  skipped: SkippedItem[];
  /** The entries of `entries`, whole and in the same order, read from the zip again. */
  readEntries(): AsyncGenerator<ForeignEntry>;
  /** A photo's bytes, by its path in the zip. */
  photo(file: string): EntryBytes;
  close(): void;
}

/**
 * An export's entries as it can be read any number of times, in the same
 * order each time: what the reading leaves out goes to `skipped`.
 */
interface EntrySource {
  format: JournalZip['format'];
  read(skipped: SkippedItem[]): AsyncGenerator<ForeignEntry>;
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
  const opened = await openZip(path);
  const { zip } = opened;
  try {
    const files = await readDirectory(zip);
    const inflated = new Inflation(zipBytes);
    const root = commonFolder([...files.keys()]);
    const at = (name: string) => files.get(root + name);
    const rootJson = [...files.keys()].filter((name) => name.startsWith(root) && !name.slice(root.length).includes('/') && name.endsWith('.json'));
    const vaultExport = at(MANIFEST_JSON) !== undefined && at(VAULT_JSON) !== undefined;

    const skipped: SkippedItem[] = [];
    let source: EntrySource;
    if (!vaultExport && rootJson.length > 0) source = await dayOneSource(zip, files, root, rootJson, inflated);
    else {
      const folder = vaultExport ? `${root}journal/` : root;
      const elsewhere = vaultExport
        ? 'an import adds the journal of a Vault export; RESTORE A VAULT brings back all of it, into an empty vault'
        : 'only Markdown and text notes are imported from a folder of notes';
      source = notesSource(zip, files, folder, elsewhere, inflated, skipped);
    }

    // The whole export is read once before anything is stored, keeping each entry's key, times and photos, not its text.
    let count = 0;
    const entries: PlannedEntry[] = [];
    const notFitting: SkippedItem[] = [];
    for await (const entry of source.read(skipped)) {
      count += 1;
      const fitted = fitEntry(entry);
      if ('entry' in fitted) entries.push(planOf(fitted.entry));
      else notFitting.push(fitted.skipped);
    }
    if (count > IMPORT_ENTRIES_MAX) throw tooManyEntries(count);
    skipped.push(...notFitting);
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
      format: source.format,
      entries,
      skipped,
      readEntries: () => fittedAgain(source, entries),
      photo: (file) => opened.bytes(files.get(file) as Entry),
      close: opened.close,
    };
  } catch (error) {
    opened.close();
    throw error;
  }
}

function planOf({ title: _title, content: _content, ...plan }: ForeignEntry): PlannedEntry {
  return plan;
}

/** The source's entries that fit, read again: the same as `planned`, one for one (the spooled zip is the import's own and does not change). */
async function* fittedAgain(source: EntrySource, planned: PlannedEntry[]): AsyncGenerator<ForeignEntry> {
  let next = 0;
  for await (const entry of source.read([])) {
    const fitted = fitEntry(entry);
    if (!('entry' in fitted)) continue;
    if (fitted.entry.key !== planned[next]?.key) throw new Error(`The export read differently the second time, at entry ${next + 1}`);
    next += 1;
    yield fitted.entry;
  }
  if (next !== planned.length) throw new Error(`The export read differently the second time: ${next} entries, not ${planned.length}`);
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

/** A Day One export's journals, each checked against its limit on the zip's directory, read as dayOneExport says. */
function dayOneSource(zip: ZipFile, files: Map<string, Entry>, root: string, names: string[], inflated: Inflation): Promise<EntrySource> {
  const journals = names.sort().map((name) => {
    const entry = files.get(name) as Entry;
    const file = name.slice(root.length);
    if (entry.uncompressedSize > IMPORT_INFLATE_LIMITS.dayOneJson)
      throw new ArchiveRefusal(
        413,
        `${file} would inflate to ${entry.uncompressedSize} bytes, over the ${IMPORT_INFLATE_LIMITS.dayOneJson} a journal file can be`,
      );
    inflated.add(name, entry.uncompressedSize);
    return { file, open: () => openEntry(zip, entry) };
  });
  return dayOneExport(journals, dayOneMedia(files, root));
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

/**
 * A folder of notes: every note's limits checked on the zip's directory
 * (a note too long for an entry is named in `skipped`), each reading
 * inflating the notes one at a time, then naming the files no note showed.
 */
function notesSource(zip: ZipFile, files: Map<string, Entry>, folder: string, elsewhere: string, inflated: Inflation, skipped: SkippedItem[]): EntrySource {
  const notes: Array<[string, Entry]> = [];
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
    if (notes.length >= IMPORT_ENTRIES_MAX) throw new ArchiveRefusal(413, `The zip holds more than the ${IMPORT_ENTRIES_MAX} notes one import adds: split it`);
    inflated.add(name, entry.uncompressedSize);
    notes.push([name, entry]);
  }
  return {
    format: 'markdown',
    async *read(readingSkipped) {
      for (const [name, entry] of notes) yield noteEntry({ path: name, bytes: await readWhole(zip, entry), modifiedAt: entry.getLastModDate() }, images);
      readingSkipped.push(...unread(others, images, folder, elsewhere));
    },
  };
}

/** The files no note reads or shows, by kind and reason (`2 .png files: no note shows them`), once the notes have been read. */
function unread(others: string[], images: NoteImages, folder: string, elsewhere: string): SkippedItem[] {
  const counts = new Map<string, { kind: string; unshownPhoto: boolean; count: number }>();
  for (const name of others) {
    if (images.isLinked(name)) continue;
    const kind = extensionOf(name).toLowerCase() || 'other';
    const unshownPhoto = name.startsWith(folder) && photoTypeOf(name) !== undefined;
    const group = counts.get(`${kind} ${unshownPhoto}`) ?? { kind, unshownPhoto, count: 0 };
    group.count += 1;
    counts.set(`${kind} ${unshownPhoto}`, group);
  }
  const groups: SkippedItem[] = [];
  for (const { kind, unshownPhoto, count } of counts.values()) {
    const reason = unshownPhoto ? `no note shows ${count === 1 ? 'it' : 'them'}` : elsewhere;
    groups.push({ source: `${count} .${kind} file${count === 1 ? '' : 's'}`, reason });
  }
  return groups;
}
