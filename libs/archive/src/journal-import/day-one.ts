import { IMPORT_ENTRIES_MAX, localDateTime } from '@vault/contracts';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { type MomentKind, MOMENT, momentKind, unescapeDayOne } from './day-one-text.js';
import { parseForeignDate } from './foreign-date.js';
import { ArchiveRefusal } from '../archive-refusal.js';
import { type ForeignEntry, type ForeignPhoto, type SkippedItem, extensionOf, photoPlaceholder, photoTypeOf, tooManyEntries } from './foreign-entry.js';
import { jsonEntries } from './json-entries.js';

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

/** One `<Journal name>.json` of the zip: its name, and its bytes, opened again for each pass. */
export interface DayOneJournal {
  file: string;
  open(): Promise<Readable>;
}

/** The media files of the zip: a file's path by its folder (`photos`, `videos`, `audios`, `pdfs`) and md5. */
export interface DayOneMedia {
  find(folder: string, md5: string, type: string | undefined): string | undefined;
}

const FOLDERS: Record<MomentKind, string> = { photos: 'photos', videos: 'videos', audios: 'audios', pdfAttachments: 'pdfs' };
const NOUNS: Record<MomentKind, string> = { photos: 'photo', videos: 'video', audios: 'audio recording', pdfAttachments: 'PDF' };

/**
 * A Day One JSON export (every journal of the zip), its entries streamed
 * (json-entries.ts) in passes. The first, here, describes every entry (an
 * entry may name a photo that another lists, so identifiers are looked up
 * across the export), refusing the import for an entry without an id or a
 * journal that is not one; past the most one import adds, entries are only
 * counted, for the refusal to say how many there are. Each `read` then turns
 * them into the vault's entries: the creation and modification times, the
 * text as Markdown (Day One's escapes undone where they change nothing,
 * `# Title` first lines as the title), the tags, star and local time as the
 * text's last lines, the photos for the photo vault, and a line in place of
 * each photo, video, recording or PDF reference. What the vault cannot take
 * (videos, recordings, PDFs, HEIC photos, files missing from the zip, an
 * entry given twice) is named in `skipped`; a date that is not one refuses
 * the import.
 */
export async function dayOneExport(
  journals: DayOneJournal[],
  media: DayOneMedia,
): Promise<{ format: 'day-one'; read(skipped: SkippedItem[]): AsyncGenerator<ForeignEntry> }> {
  const moments = new Map<string, { kind: MomentKind; moment: Moment }>();
  let count = 0;
  for await (const { file, raw, index } of entriesOf(journals)) {
    if (++count > IMPORT_ENTRIES_MAX) continue;
    const entry = parseEntry(file, raw, index);
    for (const kind of Object.keys(FOLDERS) as MomentKind[])
      for (const moment of entry[kind] ?? []) if (moment.identifier) moments.set(moment.identifier.toUpperCase(), { kind, moment });
  }
  if (count > IMPORT_ENTRIES_MAX) throw tooManyEntries(count);
  return {
    format: 'day-one',
    async *read(skipped) {
      // Each pass keeps its own record of the entries it has seen, so the export can be read again.
      const seen = new Set<string>();
      for await (const { file, raw, index } of entriesOf(journals)) {
        const entry = parseEntry(file, raw, index);
        const source = `${file}, entry ${entry.uuid}`;
        const key = `dayone:${entry.uuid.toUpperCase()}`;
        if (seen.has(key)) {
          skipped.push({ source, reason: 'the export holds this entry twice; it was imported once' });
          continue;
        }
        seen.add(key);
        yield toEntry(entry, source, key, moments, media, skipped);
      }
    },
  };
}

/** Every journal's entries as they stream, each with its file and its place there. */
async function* entriesOf(journals: DayOneJournal[]): AsyncGenerator<{ file: string; raw: unknown; index: number }> {
  for (const { file, open } of journals) {
    let index = 0;
    for await (const raw of jsonEntries(await open(), file)) yield { file, raw, index: index++ };
  }
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
