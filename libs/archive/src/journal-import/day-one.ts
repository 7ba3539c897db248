import { localDateTime } from '@vault/contracts';
import { z } from 'zod';
import { type MomentKind, MOMENT, momentKind, unescapeDayOne } from './day-one-text.js';
import { parseForeignDate } from './foreign-date.js';
import { ArchiveRefusal } from '../archive-refusal.js';
import { type ForeignEntry, type ForeignPhoto, type SkippedItem, extensionOf, photoPlaceholder, photoTypeOf } from './foreign-entry.js';

/** A photo, video, recording or PDF of an entry: its `identifier` is what the text names, its `md5` names the file. */
const Moment = z.looseObject({
  identifier: z.string().optional(),
  md5: z.string().optional(),
  type: z.string().optional(),
  orderInEntry: z.number().optional(),
});
type Moment = z.infer<typeof Moment>;

/** An entry as Day One's JSON export writes it; only the uuid and the creation date are sure to be there. */
const DayOneEntry = z.looseObject({
  uuid: z.string().min(1).max(100),
  creationDate: z.string(),
  modifiedDate: z.string().optional(),
  text: z.string().optional(),
  richText: z.string().optional(),
  tags: z.array(z.string()).optional(),
  // Read leniently: a flag or a zone the vault cannot read only leaves its line out.
  starred: z.unknown().optional(),
  timeZone: z.unknown().optional(),
  photos: z.array(Moment).optional(),
  videos: z.array(Moment).optional(),
  audios: z.array(Moment).optional(),
  pdfAttachments: z.array(Moment).optional(),
});
type DayOneEntry = z.infer<typeof DayOneEntry>;

/** One `<Journal name>.json` of the zip, parsed. */
export interface DayOneJournal {
  /** The file's name in the zip. */
  file: string;
  json: unknown;
}

/** The media files of the zip: a file's path by its folder (`photos`, `videos`, `audios`, `pdfs`) and md5. */
export interface DayOneMedia {
  find(folder: string, md5: string, type: string | undefined): string | undefined;
}

const FOLDERS: Record<MomentKind, string> = { photos: 'photos', videos: 'videos', audios: 'audios', pdfAttachments: 'pdfs' };
const NOUNS: Record<MomentKind, string> = { photos: 'photo', videos: 'video', audios: 'audio recording', pdfAttachments: 'PDF' };

/**
 * A Day One JSON export (every journal of the zip) read as its entries
 * stream, in two passes: `describe` sees every entry first (an entry may
 * name a photo that another lists, so identifiers are looked up across the
 * export), then a `reading` turns each into the vault's entry: its creation
 * and modification times, its text as Markdown (Day One's escapes undone
 * where they change nothing, `# Title` first lines as the title), its tags,
 * star and local time as the text's last lines, its photos for the photo
 * vault, and a line in place of each photo, video, recording or PDF
 * reference. What the vault cannot take (videos, recordings, PDFs, HEIC
 * photos, files missing from the zip, an entry given twice) is named in
 * `skipped`. An entry without an id or with a date that is not one refuses
 * the whole import.
 */
export class DayOneReader {
  private readonly moments = new Map<string, { kind: MomentKind; moment: Moment }>();

  constructor(private readonly media: DayOneMedia) {}

  /** The first pass: the entry (the `index`th of `file`) is checked, and the media it lists are noted. */
  describe(file: string, raw: unknown, index: number): void {
    const entry = parseEntry(file, raw, index);
    for (const kind of Object.keys(FOLDERS) as MomentKind[])
      for (const moment of entry[kind] ?? []) if (moment.identifier) this.moments.set(moment.identifier.toUpperCase(), { kind, moment });
  }

  /**
   * A pass over the entries once `describe` has seen them all: each as the
   * vault will hold it, or undefined for one the export gives twice. What is
   * left out is added to `skipped`. Each pass keeps its own record of the
   * entries it has seen, so the export can be read again.
   */
  reading(skipped: SkippedItem[]): (file: string, raw: unknown, index: number) => ForeignEntry | undefined {
    const seen = new Set<string>();
    return (file, raw, index) => {
      const entry = parseEntry(file, raw, index);
      const source = `${file}, entry ${entry.uuid}`;
      const key = `dayone:${entry.uuid.toUpperCase()}`;
      if (seen.has(key)) {
        skipped.push({ source, reason: 'the export holds this entry twice; it was imported once' });
        return undefined;
      }
      seen.add(key);
      return toEntry(entry, source, key, this.moments, this.media, skipped);
    };
  }
}

/** The same for journals already parsed: every entry of every journal, and what was left out. */
export function dayOneEntries(journals: DayOneJournal[], media: DayOneMedia): { entries: ForeignEntry[]; skipped: SkippedItem[] } {
  const lists = journals.map(({ file, json }) => ({ file, list: entriesList(file, json) }));
  const reader = new DayOneReader(media);
  for (const { file, list } of lists)
    list.forEach((raw, index) => {
      reader.describe(file, raw, index);
    });
  const entries: ForeignEntry[] = [];
  const skipped: SkippedItem[] = [];
  const read = reader.reading(skipped);
  for (const { file, list } of lists)
    list.forEach((raw, index) => {
      const entry = read(file, raw, index);
      if (entry) entries.push(entry);
    });
  return { entries, skipped };
}

function entriesList(file: string, json: unknown): unknown[] {
  const list = (json as { entries?: unknown } | null)?.entries;
  if (typeof json !== 'object' || json === null || !Array.isArray(list))
    throw new ArchiveRefusal(400, `${file} is not a Day One journal (it has no "entries" list)`);
  return list;
}

/** The `index`th entry of `file`, as Day One writes one, or the refusal naming what is wrong with it. */
function parseEntry(file: string, raw: unknown, index: number): DayOneEntry {
  const entry = DayOneEntry.safeParse(raw);
  if (!entry.success) {
    const issue = entry.error.issues[0];
    throw new ArchiveRefusal(400, `${file}, entry ${index + 1}: ${issue.path.join('.') || 'the entry'} ${issue.message.toLowerCase()}`);
  }
  return entry.data;
}

function toEntry(
  entry: DayOneEntry,
  source: string,
  key: string,
  moments: Map<string, { kind: MomentKind; moment: Moment }>,
  media: DayOneMedia,
  skipped: SkippedItem[],
): ForeignEntry {
  const createdAt = parseForeignDate(entry.creationDate);
  if (!createdAt) throw new ArchiveRefusal(400, `${source}: creationDate is not a date (${entry.creationDate.slice(0, 40)})`);
  const modifiedAt = entry.modifiedDate === undefined ? createdAt : parseForeignDate(entry.modifiedDate);
  if (!modifiedAt) throw new ArchiveRefusal(400, `${source}: modifiedDate is not a date (${String(entry.modifiedDate).slice(0, 40)})`);

  const photos: ForeignPhoto[] = [];
  const placed = new Set<string>();
  /** The line that stands for a photo, video, recording or PDF in the text. */
  const place = (kind: MomentKind, identifier: string): string => {
    const found = moments.get(identifier.toUpperCase());
    placed.add(identifier.toUpperCase());
    const noun = NOUNS[found?.kind ?? kind];
    const what = `${noun} ${identifier}`;
    if (!found) {
      skipped.push({ source, reason: `the text names a ${what} the export does not describe` });
      return `*[${noun} not in the export]*`;
    }
    if (found.kind !== 'photos') {
      skipped.push({ source, reason: `the ${what}: the vault keeps photos only` });
      return `*[${noun} not imported: the vault keeps photos only]*`;
    }
    const type = found.moment.type?.toLowerCase();
    const file = found.moment.md5 ? media.find('photos', found.moment.md5.toLowerCase(), type) : undefined;
    if (!file) {
      skipped.push({ source, reason: `the ${what}: its file is not in the export` });
      return `*[photo missing from the export]*`;
    }
    const contentType = photoTypeOf(file);
    if (!contentType) {
      skipped.push({ source, reason: `the ${what}: ${extensionOf(file)} photos are not kept by the vault (JPEG, PNG, GIF and WebP are)` });
      return `*[photo not imported: ${extensionOf(file)}]*`;
    }
    photos.push({ file, contentType });
    return photoPlaceholder(photos.length);
  };

  let text = entry.text ?? richTextPlain(entry.richText);
  text = text.replace(MOMENT, (_, kind: string | undefined, identifier: string) => place(momentKind(kind), identifier));
  // Media the entry holds but its text does not name: after the text, in the entry's order.
  const unplaced = (Object.keys(FOLDERS) as MomentKind[])
    .flatMap((kind) => (entry[kind] ?? []).map((moment, index) => ({ kind, moment, index })))
    .filter(({ moment }) => moment.identifier && !placed.has(moment.identifier.toUpperCase()))
    .sort((a, b) => (a.moment.orderInEntry ?? a.index) - (b.moment.orderInEntry ?? b.index));
  const trailing = unplaced.map(({ kind, moment }) => place(kind, moment.identifier as string));
  if (trailing.length > 0) text = `${text.trimEnd()}\n\n${trailing.join('\n\n')}`;

  const { title, body } = splitTitle(unescapeDayOne(text));
  const footer = footerOf(entry, createdAt);
  const content = footer ? `${body}${body ? '\n\n' : ''}${footer}` : body;
  return { key, source, title, content, createdAt, updatedAt: modifiedAt, photos };
}

/**
 * What Day One shows beside an entry and the vault has no place for, as the
 * text's last lines: its tags, its star, and the time it was written where it
 * was written (the vault shows times in the reader's zone; an entry written
 * abroad keeps its local hour this way).
 */
function footerOf(entry: DayOneEntry, createdAt: Date): string {
  const lines: string[] = [];
  const tags = [...new Set((entry.tags ?? []).map((tag) => tag.trim()).filter(Boolean))];
  if (tags.length > 0) lines.push(`Tags: ${tags.join(', ')}`);
  if (entry.starred === true) lines.push('Starred');
  const local = typeof entry.timeZone === 'string' ? localDateTime(createdAt, entry.timeZone) : undefined;
  if (local) lines.push(`Written ${local} (${entry.timeZone})`);
  return lines.join('\n');
}

/** A first line `# Title` is the entry's title, as Day One writes a titled entry; the rest is its text. */
function splitTitle(text: string): { title?: string; body: string } {
  const match = /^#[ \t]+(.*?)[ \t#]*(?:\r?\n|$)/.exec(text);
  if (!match?.[1].trim()) return { body: text.trim() };
  return { title: match[1].trim(), body: text.slice(match[0].length).trim() };
}

/** The text of Day One's rich text (a JSON string: `{"contents": [{"text": ...}]}`), for an entry exported without `text`. */
function richTextPlain(richText: string | undefined): string {
  if (!richText) return '';
  try {
    const parsed = JSON.parse(richText) as { contents?: Array<{ text?: unknown }> };
    return (parsed.contents ?? []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  } catch {
    return '';
  }
}
