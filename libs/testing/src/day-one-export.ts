import { createHash } from 'node:crypto';
import { numberedPng } from './images.js';
import { zipOf } from './zip-files.js';

/**
 * A Day One JSON export as Day One's "Export > JSON" writes it (one
 * `<Journal>.json` per journal with `metadata` and `entries[]`, media in
 * `photos/`, `videos/` and `pdfs/` named by md5), built here with what a
 * real export holds: titles as a first line `# Title`, Day One's backslash
 * escapes, `dayone-moment://` photo references, videos and PDFs, tags,
 * starred entries, time zones, richText beside text, entries without text.
 * Each entry comes with what Vault must make of it (title, content, times).
 */
export interface DayOneExpectedEntry {
  uuid: string;
  title?: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  /** The photos (their bytes) the entry brings into the photo vault. */
  photos: Buffer[];
}

export interface DayOneExport {
  zip: Buffer;
  entries: DayOneExpectedEntry[];
  /** Every distinct photo of the export. */
  photos: Buffer[];
  /** Things an import must leave out with a reason: videos and PDFs. */
  leftOut: number;
}

const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Australia/Adelaide', 'UTC'];
const WORDS = ['Überprüfung', 'café', 'naïve', 'Ωμέγα', 'привет', '東京', 'سلام', 'emoji ☀️🌊', 'straße', 'ﬁnal'];

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex').slice(0, 32).toUpperCase();
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
/** Day One's dates: UTC, to the second. */
const dayOneDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

export async function dayOneExport({ journals = 3, entries = 1000, photos = 50, videos = 3, pdfs = 2, seed = 'export' } = {}): Promise<DayOneExport> {
  const files: Record<string, Buffer> = {};
  const expected: DayOneExpectedEntry[] = [];
  const allPhotos: Buffer[] = [];
  const byJournal: unknown[][] = Array.from({ length: journals }, () => []);
  const start = Date.UTC(2016, 0, 3, 7, 8, 9);
  for (let i = 0; i < entries; i++) {
    const uuid = hex(`${seed} entry ${i}`);
    const created = new Date(start + i * 86_400_000 * 3 + (i % 7) * 3_600_000 + (i % 59) * 1000);
    const modified = new Date(created.getTime() + (i % 5) * 60_000);
    const word = WORDS[i % WORDS.length];
    const titled = i % 4 !== 3;
    const title = `Day ${i + 1} — ${word}`;
    const tags = i % 3 === 0 ? ['travel', `year ${created.getUTCFullYear()}`] : [];
    // Day One escapes Markdown's characters in plain text; a mid-line one means nothing to Markdown and comes back plain.
    const paragraph = `Entry ${i + 1} of the export: ${word}, written in ${ZONES[i % ZONES.length]}\\. Costs \\(about\\) 12\\.50\\!`;
    const plainParagraph = `Entry ${i + 1} of the export: ${word}, written in ${ZONES[i % ZONES.length]}. Costs (about) 12.50!`;
    const moments: Record<string, unknown[]> = {};
    const lines = [paragraph];
    const expectedLines = [plainParagraph];
    const entryPhotos: Buffer[] = [];
    if (i < photos) {
      const bytes = numberedPng(i + 1);
      const identifier = hex(`${seed} photo ${i}`);
      files[`photos/${md5(bytes)}.png`] = bytes;
      moments.photos = [{ identifier, md5: md5(bytes), type: 'png', orderInEntry: 0, width: 2, height: 1 }];
      lines.push(`![](dayone-moment://${identifier})`);
      expectedLines.push('*[photo 1, in the photo vault]*');
      entryPhotos.push(bytes);
      allPhotos.push(bytes);
    } else if (i < photos + videos) {
      const bytes = Buffer.from(`not really a video ${i}`);
      const identifier = hex(`${seed} video ${i}`);
      files[`videos/${md5(bytes)}.mp4`] = bytes;
      moments.videos = [{ identifier, md5: md5(bytes), type: 'mp4' }];
      lines.push(`![](dayone-moment:/video/${identifier})`);
      expectedLines.push('*[video not imported: the vault keeps photos only]*');
    } else if (i < photos + videos + pdfs) {
      const bytes = Buffer.from(`%PDF-1.4 not really a pdf ${i}`);
      const identifier = hex(`${seed} pdf ${i}`);
      files[`pdfs/${md5(bytes)}.pdf`] = bytes;
      moments.pdfAttachments = [{ identifier, md5: md5(bytes), type: 'pdf' }];
      lines.push(`![](dayone-moment:/pdfAttachment/${identifier})`);
      expectedLines.push('*[PDF not imported: the vault keeps photos only]*');
    }
    const body = lines.join('\n\n');
    const text = titled ? `# ${title}\n\n${body}` : body;
    const zone = ZONES[i % ZONES.length];
    const starred = i % 10 === 0;
    // Its last lines: the tags, the star, the hour where it was written (sv-SE writes 'YYYY-MM-DD hh:mm:ss').
    const footer = [
      ...(tags.length > 0 ? [`Tags: ${tags.join(', ')}`] : []),
      ...(starred ? ['Starred'] : []),
      `Written ${created.toLocaleString('sv-SE', { timeZone: zone }).slice(0, 16)} (${zone})`,
    ];
    const content = `${expectedLines.join('\n\n')}\n\n${footer.join('\n')}`;
    const entry: Record<string, unknown> = {
      uuid,
      creationDate: dayOneDate(created),
      modifiedDate: dayOneDate(modified),
      timeZone: zone,
      starred,
      isPinned: false,
      duration: 0,
      creationDevice: 'iPhone',
      creationOSName: 'iOS',
      richText: JSON.stringify({ meta: { version: 1 }, contents: [{ text }] }),
      ...(tags.length > 0 ? { tags } : {}),
      ...moments,
    };
    // Some exports carry only richText for an entry; the importer reads its text from there.
    if (i % 50 !== 49) entry.text = text;
    byJournal[i % journals].push(entry);
    expected.push({
      uuid,
      ...(titled ? { title } : {}),
      content,
      createdAt: new Date(dayOneDate(created)).toISOString(),
      updatedAt: new Date(dayOneDate(modified)).toISOString(),
      photos: entryPhotos,
    });
  }
  const names = ['Journal', 'Voyages 🌍', 'Work notes'];
  byJournal.forEach((list, index) => {
    const name = names[index] ?? `Journal ${index + 1}`;
    files[`${name}.json`] = Buffer.from(JSON.stringify({ metadata: { version: '1.0' }, entries: list }, null, 2));
  });
  return {
    zip: await zipOf(files),
    entries: expected,
    photos: allPhotos,
    leftOut: Math.min(videos, Math.max(0, entries - photos)) + Math.min(pdfs, Math.max(0, entries - photos - videos)),
  };
}

/** An entry as the journal's API answers it. */
export interface StoredEntry {
  title?: string;
  content: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Where the vault's entries differ from what the export should have become:
 * one line per entry of the export not found with its exact text, or found
 * with another title or other times. Empty when every entry came through.
 */
export function dayOneDifferences(exported: DayOneExport, stored: StoredEntry[]): string[] {
  const byText = new Map(stored.map((entry) => [entry.content, entry]));
  const differences: string[] = [];
  for (const wanted of exported.entries) {
    const entry = byText.get(wanted.content);
    if (!entry) differences.push(`${wanted.uuid}: no entry with its text`);
    else if (entry.title !== wanted.title || entry.createdAt !== wanted.createdAt || entry.updatedAt !== wanted.updatedAt)
      differences.push(
        `${wanted.uuid}: ${JSON.stringify([entry.title, entry.createdAt, entry.updatedAt])}, expected ${JSON.stringify([wanted.title, wanted.createdAt, wanted.updatedAt])}`,
      );
  }
  return differences;
}
