import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { ArchiveRefusal } from '../archive-refusal.js';
import { jsonEntries } from './json-entries.js';

/** The bytes as a stream of `size`-byte chunks, so that characters and tokens are cut between chunks. */
const chunked = (bytes: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));

async function itemsOf(bytes: Buffer, size = 7): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of jsonEntries(chunked(bytes, size), 'Travel.json')) items.push(item);
  return items;
}

async function refusalOf(bytes: Buffer): Promise<ArchiveRefusal> {
  const error = await itemsOf(bytes).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ArchiveRefusal);
  return error as ArchiveRefusal;
}

describe('jsonEntries', () => {
  const journal = {
    metadata: { version: '1.0' },
    entries: [
      { uuid: 'A1', text: 'Café ☕ in Kyōto 京都, and 🏔️', tags: ['trip'] },
      { uuid: 'A2', text: 'quote " and backslash \\ and\nnew line' },
    ],
  };

  it('gives the items of the entries list as JSON.parse reads them, whatever the chunks cut', async () => {
    const bytes = Buffer.from(JSON.stringify(journal, null, 2));
    for (const size of [1, 2, 3, 5, 64, bytes.length]) expect(await itemsOf(bytes, size)).toEqual(journal.entries);
  });

  it('reads a byte order mark, an empty list, and a list that is not the last key', async () => {
    expect(await itemsOf(Buffer.from(`\uFEFF${JSON.stringify(journal)}`))).toEqual(journal.entries);
    expect(await itemsOf(Buffer.from('{"entries": []}'))).toEqual([]);
    expect(await itemsOf(Buffer.from('{"entries": [{"uuid": "B"}], "metadata": {"entries": 5}}'))).toEqual([{ uuid: 'B' }]);
  });

  it('refuses a file that is not an object with an entries list, naming it', async () => {
    for (const text of ['{}', '[{"uuid": "A"}]', '{"entries": {"x": {"uuid": "A"}}}', '{"entries": 5}', '"entries"', '{"metadata": {"entries": []}}']) {
      expect((await refusalOf(Buffer.from(text))).message).toBe('Travel.json is not a Day One journal (it has no "entries" list)');
    }
  });

  it('refuses broken JSON, and bytes that are not UTF-8', async () => {
    for (const text of ['', '{"entries": [{"uuid": "A"},', '{"entries": []} trailing', '{"entries": [{uuid: "A"}]}']) {
      const refusal = await refusalOf(Buffer.from(text));
      expect(refusal.getStatus()).toBe(400);
      expect(refusal.message).toMatch(/^Travel\.json is not valid JSON \(.+\)$/);
    }
    const latin1 = Buffer.from('{"entries": [{"text": "caf\xe9"}]}', 'latin1');
    expect((await refusalOf(latin1)).message).toBe('Travel.json is not UTF-8 text');
    // A character cut off at the very end.
    expect((await refusalOf(Buffer.concat([Buffer.from('{"entries": []}'), Buffer.from('€').subarray(0, 2)]))).message).toBe('Travel.json is not UTF-8 text');
  });
});
