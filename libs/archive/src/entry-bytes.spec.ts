import { afterAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { openZip, readZipDirectory } from './zip-file.js';

const dir = mkdtempSync(join(tmpdir(), 'vault-entry-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A zip of one file, `compress`ed or stored, as yazl writes it (sizes and CRC-32 in the central directory). */
async function zipOf(name: string, bytes: Buffer, compress: boolean): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(bytes, name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The central directory's record of the zip's one file: its CRC-32 is 16 bytes in, its sizes 20 and 24. */
const centralRecord = (zip: Buffer) => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));

/** Every chunk `copyTo` gives for the zip's one file, copied, and the memory each was given in. */
async function copied(zip: Buffer, write?: (chunk: Buffer) => Promise<void>): Promise<{ bytes: Buffer; memory: Set<ArrayBufferLike> }> {
  const path = join(dir, `${randomBytes(6).toString('hex')}.zip`);
  writeFileSync(path, zip);
  const opened = await openZip(path);
  try {
    const [entry] = (await readZipDirectory(opened.zip, () => true)).values();
    const chunks: Buffer[] = [];
    const memory = new Set<ArrayBufferLike>();
    await opened.bytes(entry).copyTo(async (chunk) => {
      memory.add(chunk.buffer);
      chunks.push(Buffer.from(chunk));
      await write?.(chunk);
    });
    return { bytes: Buffer.concat(chunks), memory };
  } finally {
    opened.close();
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe("a zip file's bytes, read straight from the zip", () => {
  const photo = randomBytes(1024 * 1024 + 17);
  const text = Buffer.from('A paragraph of the day, written to be read again. '.repeat(40_000));

  it('gives a stored file whole, every chunk in the one buffer it reuses', async () => {
    const { bytes, memory } = await copied(await zipOf('photos/a.png', photo, false));
    expect(sha256(bytes)).toBe(sha256(photo));
    expect(memory.size).toBe(1);
  });

  it('inflates a deflated file whole, text and photo alike', async () => {
    for (const file of [text, photo]) expect(sha256((await copied(await zipOf('notes/a.md', file, true))).bytes)).toBe(sha256(file));
  });

  it('gives an empty file as no bytes at all', async () => {
    for (const compress of [false, true]) expect((await copied(await zipOf('empty.md', Buffer.alloc(0), compress))).bytes.length).toBe(0);
  });

  it('refuses bytes changed in the zip, stored or deflated (their CRC-32, or zlib, says so)', async () => {
    for (const compress of [false, true]) {
      const zip = await zipOf('photos/a.png', photo, compress);
      zip[30 + 'photos/a.png'.length + 1000] ^= 0x01;
      await expect(copied(zip)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^photos\/a\.png is damaged in the zip \(.+\): refused$/),
      });
    }
  });

  it('refuses a file that inflates to fewer bytes than its directory declares', async () => {
    const zip = await zipOf('notes/a.md', text, true);
    zip.writeUInt32LE(text.length + 100, centralRecord(zip) + 24);
    await expect(copied(zip)).rejects.toThrow(`notes/a.md does not inflate to the size it declares (${text.length} of ${text.length + 100} bytes)`);
  });

  it('stops a file that inflates past what its directory declares, without writing past it (a zip bomb)', async () => {
    const bomb = Buffer.alloc(64 * 1024 * 1024);
    const zip = await zipOf('notes/bomb.md', bomb, true);
    zip.writeUInt32LE(1000, centralRecord(zip) + 24);
    let written = 0;
    const count = async (chunk: Buffer) => {
      written += chunk.length;
    };
    await expect(copied(zip, count)).rejects.toThrow(
      'notes/bomb.md does not inflate to the size it declares (more than 1000 bytes): refused as a zip bomb or damaged file',
    );
    expect(written).toBeLessThanOrEqual(1000);
  });

  it('refuses a stored file whose two sizes differ', async () => {
    const zip = await zipOf('photos/a.png', photo, false);
    zip.writeUInt32LE(photo.length - 1, centralRecord(zip) + 20);
    await expect(copied(zip)).rejects.toMatchObject({ status: 400 });
  });

  it("passes the writer's own failure on as it is, stored or deflated, and stops there", async () => {
    for (const compress of [false, true]) {
      let writes = 0;
      const failing = async () => {
        writes += 1;
        throw new Error('the photo store is full');
      };
      await expect(copied(await zipOf('photos/a.png', photo, compress), failing)).rejects.toThrow(/^the photo store is full$/);
      expect(writes).toBe(1);
    }
  });
});
