import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryBytes } from './entry-bytes.js';
import { writePhotoTarget } from './photo-target.js';

/** A zip file's bytes, given in chunks of `chunkBytes` from one buffer reused for each, as entry-bytes.ts gives them. */
function bytesOf(text: string, chunkBytes = 4): EntryBytes {
  const whole = Buffer.from(text);
  return {
    size: whole.length,
    async copyTo(write) {
      const chunk = Buffer.alloc(chunkBytes);
      for (let at = 0; at < whole.length; at += chunkBytes) {
        const n = whole.copy(chunk, 0, at, at + chunkBytes);
        await write(chunk.subarray(0, n));
      }
    },
  };
}

/** Bytes that fail part-way: a photo whose zip entry is damaged. */
const failingPartWay = (): EntryBytes => ({
  size: 10,
  async copyTo(write) {
    await write(Buffer.from('half'));
    throw new Error('the photo does not inflate to the size it declares');
  },
});

describe("writing a photo where media-svc reserved it (the embedded store's uploads folder)", () => {
  const uploads = join(mkdtempSync(join(tmpdir(), 'vault-photo-target-')), 'uploads');
  mkdirSync(uploads);
  afterAll(() => rmSync(join(uploads, '..'), { recursive: true, force: true }));
  const slot = () => ({ kind: 'file' as const, path: join(uploads, randomUUID()) });

  it('writes the bytes whole, each chunk before the next reuses its memory', async () => {
    const target = slot();
    await writePhotoTarget(target, bytesOf('photo bytes, longer than a chunk'));
    expect(readFileSync(target.path, 'utf8')).toBe('photo bytes, longer than a chunk');
  });

  it('leaves no file behind when the bytes fail part-way', async () => {
    const targets = Array.from({ length: 50 }, slot);
    for (const target of targets) await expect(writePhotoTarget(target, failingPartWay())).rejects.toThrow('does not inflate');
    expect(targets.filter((target) => existsSync(target.path))).toEqual([]);
  });

  it('never writes or removes a file that was there before (the slot taken)', async () => {
    const target = slot();
    writeFileSync(target.path, 'not ours');
    await expect(writePhotoTarget(target, bytesOf('photo'))).rejects.toThrow(/EEXIST/);
    expect(readFileSync(target.path, 'utf8')).toBe('not ours');
    expect(readdirSync(uploads)).toContain(target.path.split('/').pop());
  });

  it('refuses a file the media service did not name as an upload', async () => {
    await expect(writePhotoTarget({ kind: 'file', path: join(uploads, '..', 'photos', randomUUID()) }, bytesOf('photo'))).rejects.toThrow(
      'invalid upload file',
    );
  });
});
