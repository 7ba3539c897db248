import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { unescapeDayOne } from './day-one-text.js';
import { type DayOneMedia, dayOneExport } from './day-one.js';
import type { ForeignEntry, SkippedItem } from './foreign-entry.js';
import { ArchiveRefusal } from '../archive-refusal.js';

/** Every entry of the journals (written as JSON files, read as the import streams them) and what was left out. */
async function dayOneEntries(journals: Array<{ file: string; json: unknown }>, media: DayOneMedia) {
  const exported = await dayOneExport(
    journals.map(({ file, json }) => ({ file, open: async () => Readable.from([Buffer.from(JSON.stringify(json))]) })),
    media,
  );
  const entries: ForeignEntry[] = [];
  const skipped: SkippedItem[] = [];
  for await (const entry of exported.read(skipped)) entries.push(entry);
  return { entries, skipped };
}

/** The zip's media files, as the reader indexes them. */
function mediaOf(...paths: string[]): DayOneMedia {
  return {
    find: (folder, md5, type) => paths.find((path) => path === `${folder}/${md5}.${type}`) ?? paths.find((path) => path.startsWith(`${folder}/${md5}.`)),
  };
}

const PHOTO = { identifier: '76F9B0AC37954B51BF8B9146498B29C2', md5: 'ef43abe9582131d432f20dcc68e326aa', type: 'jpeg', orderInEntry: 0 };

describe("Day One's JSON export as journal entries", () => {
  it('reads titles, times, escapes, tags and photos as real exports write them', async () => {
    const journal = {
      metadata: { version: '1.0' },
      entries: [
        {
          uuid: 'DF8B32A3FE25400BBBB3A7BBFCD23CE7',
          creationDate: '2021-03-03T11:48:50Z',
          modifiedDate: '2021-03-03T11:59:09Z',
          timeZone: 'Australia/Sydney',
          text: '# All packed up \\.\\. still checking on weather\\.\\.\\. \n\n![](dayone-moment://76F9B0AC37954B51BF8B9146498B29C2)\n\nCairns here we come\\. A rabbit\\-hole \\(really\\)\\! `a\\.b`',
          tags: ['travel', '绿岛', 'travel'],
          starred: true,
          photos: [{ ...PHOTO, filename: 'IMG_8615.HEIC', fnumber: '(null)' }],
          userActivity: {},
        },
      ],
    };
    const { entries, skipped } = await dayOneEntries([{ file: 'Travel.json', json: journal }], mediaOf('photos/ef43abe9582131d432f20dcc68e326aa.jpeg'));
    expect(skipped).toEqual([]);
    expect(entries).toEqual([
      {
        key: 'dayone:DF8B32A3FE25400BBBB3A7BBFCD23CE7',
        source: 'Travel.json, entry DF8B32A3FE25400BBBB3A7BBFCD23CE7',
        title: 'All packed up .. still checking on weather...',
        content:
          '*[photo 1, in the photo vault]*\n\nCairns here we come. A rabbit-hole (really)! `a\\.b`\n\nTags: travel, 绿岛\nStarred\nWritten 2021-03-03 22:48 (Australia/Sydney)',
        createdAt: new Date('2021-03-03T11:48:50Z'),
        updatedAt: new Date('2021-03-03T11:59:09Z'),
        photos: [{ file: 'photos/ef43abe9582131d432f20dcc68e326aa.jpeg', contentType: 'image/jpeg' }],
      },
    ]);
  });

  it('keeps the escapes that stop Markdown from reading typed characters as its own', async () => {
    expect(unescapeDayOne('1\\. not a list\n\\- not a bullet\n\\# not a heading\n\\> not a quote')).toBe(
      '1\\. not a list\n\\- not a bullet\n\\# not a heading\n\\> not a quote',
    );
    expect(unescapeDayOne('\\*not bold\\* \\_x\\_ \\[x\\]\\(y\\) \\![x] mid-line \\- \\# \\+ \\>')).toBe(
      '\\*not bold\\* \\_x\\_ \\[x\\]\\(y) \\![x] mid-line - # + >',
    );
    expect(unescapeDayOne('```\ncode \\. kept\n```\nafter\\.')).toBe('```\ncode \\. kept\n```\nafter.');
  });

  it('names what it leaves out: videos, recordings, PDFs, HEIC photos, missing files, unknown references, a repeated entry', async () => {
    const entry = {
      uuid: 'A1',
      creationDate: '2020-01-01T00:00:00Z',
      text: 'Start ![](dayone-moment:/video/V1) ![](dayone-moment:/audio/AU1) ![](dayone-moment:/pdfAttachment/P1) ![](dayone-moment://H1) ![](dayone-moment://GONE)',
      videos: [{ identifier: 'V1', md5: 'aa', type: 'mp4' }],
      audios: [{ identifier: 'AU1', md5: 'bb', format: 'aac' }],
      pdfAttachments: [{ identifier: 'P1', md5: 'cc', type: 'pdf' }],
      photos: [
        { identifier: 'H1', md5: 'dd', type: 'heic' },
        { identifier: 'M1', md5: 'ee', type: 'png', orderInEntry: 1 },
      ],
    };
    const { entries, skipped } = await dayOneEntries(
      [
        { file: 'A.json', json: { entries: [entry] } },
        { file: 'B.json', json: { entries: [{ ...entry, text: 'again' }] } },
      ],
      mediaOf('videos/aa.mp4', 'photos/dd.heic'),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].content).toBe(
      'Start *[video not imported: the vault keeps photos only]* *[audio recording not imported: the vault keeps photos only]* *[PDF not imported: the vault keeps photos only]* *[photo not imported: HEIC]* *[photo not in the export]*\n\n*[photo missing from the export]*',
    );
    expect(entries[0].title).toBeUndefined();
    expect(entries[0].photos).toEqual([]);
    expect(skipped.map((item) => item.reason)).toEqual([
      'the video V1: the vault keeps photos only',
      'the audio recording AU1: the vault keeps photos only',
      'the PDF P1: the vault keeps photos only',
      'the photo H1: HEIC photos are not kept by the vault (JPEG, PNG, GIF and WebP are)',
      'the text names a photo GONE the export does not describe',
      'the photo M1: its file is not in the export',
      'the export holds this entry twice; it was imported once',
    ]);
  });

  it('finds a photo listed under another entry, and one whose type is not its file extension', async () => {
    const { entries } = await dayOneEntries(
      [
        {
          file: 'J.json',
          json: {
            entries: [
              { uuid: 'E1', creationDate: '2020-01-01T00:00:00Z', text: '![](dayone-moment://SHARED)' },
              { uuid: 'E2', creationDate: '2020-01-02T00:00:00Z', text: 'x', photos: [{ identifier: 'SHARED', md5: 'FF00', type: 'jpeg' }] },
            ],
          },
        },
      ],
      mediaOf('photos/ff00.png'),
    );
    expect(entries[0].photos).toEqual([{ file: 'photos/ff00.png', contentType: 'image/png' }]);
    // The other entry names no photo in its text: it is placed there too, at the end.
    expect(entries[1].photos).toEqual([{ file: 'photos/ff00.png', contentType: 'image/png' }]);
  });

  it('reads an entry without text from its rich text, and one without either as empty', async () => {
    const richText = JSON.stringify({ meta: { version: 1 }, contents: [{ text: 'From rich text\n' }, { embeddedObjects: [] }] });
    const { entries } = await dayOneEntries(
      [
        {
          file: 'J.json',
          json: {
            entries: [
              { uuid: 'R', creationDate: '2020-01-01T00:00:00Z', richText },
              { uuid: 'N', creationDate: '2020-01-01T00:00:00Z' },
            ],
          },
        },
      ],
      mediaOf(),
    );
    expect(entries.map((entry) => entry.content)).toEqual(['From rich text', '']);
  });

  it('keeps the hour an entry was written in its own zone, and leaves out a zone or a star it cannot read', async () => {
    const entry = (uuid: string, fields: Record<string, unknown>) => ({ uuid, creationDate: '2022-07-01T23:30:00Z', text: 'x', ...fields });
    const { entries } = await dayOneEntries(
      [
        {
          file: 'J.json',
          json: {
            entries: [
              entry('A', { timeZone: 'America/Los_Angeles', starred: false }),
              entry('B', { timeZone: 'Asia/Kathmandu' }),
              entry('C', { timeZone: 'Mars/Olympus_Mons', starred: 'yes' }),
              entry('D', { timeZone: { name: 'Europe/Paris' }, starred: 1 }),
              entry('E', { timeZone: `Europe/${'x'.repeat(10_000)}` }),
            ],
          },
        },
      ],
      mediaOf(),
    );
    expect(entries.map((e) => e.content)).toEqual([
      'x\n\nWritten 2022-07-01 16:30 (America/Los_Angeles)',
      // The next day there, at a quarter to the hour.
      'x\n\nWritten 2022-07-02 05:15 (Asia/Kathmandu)',
      'x',
      'x',
      'x',
    ]);
  });

  it('refuses a file that is not a journal, an entry without an id and a date that is not one', async () => {
    const refusal = async (json: unknown) => {
      try {
        await dayOneEntries([{ file: 'J.json', json }], mediaOf());
      } catch (error) {
        expect(error).toBeInstanceOf(ArchiveRefusal);
        return (error as ArchiveRefusal).message;
      }
      throw new Error('not refused');
    };
    expect(await refusal([1, 2])).toBe('J.json is not a Day One journal (it has no "entries" list)');
    expect(await refusal({ entries: [{ creationDate: '2020-01-01T00:00:00Z' }] })).toMatch(/^J\.json, entry 1: uuid /);
    expect(await refusal({ entries: [{ uuid: 'X', creationDate: '2020-02-30T00:00:00Z' }] })).toBe(
      'J.json, entry X: creationDate is not a date (2020-02-30T00:00:00Z)',
    );
    expect(await refusal({ entries: [{ uuid: 'X', creationDate: '2020-01-01T00:00:00Z', modifiedDate: 'soon' }] })).toBe(
      'J.json, entry X: modifiedDate is not a date (soon)',
    );
  });
});
