import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { writePhotoTarget } from './photo-target.js';

/** Bytes that fail as soon as they are read: a photo whose zip entry is damaged. */
const failingAtOnce = () =>
  new Readable({
    read() {
      this.destroy(new Error('the photo does not inflate to the size it declares'));
    },
  });

describe("writing a photo where media-svc reserved it (the embedded store's uploads folder)", () => {
  const uploads = join(mkdtempSync(join(tmpdir(), 'vault-photo-target-')), 'uploads');
  mkdirSync(uploads);
  afterAll(() => rmSync(join(uploads, '..'), { recursive: true, force: true }));
  const slot = () => ({ kind: 'file' as const, path: join(uploads, randomUUID()) });

  it('writes the bytes whole', async () => {
    const target = slot();
    await writePhotoTarget(target, Readable.from([Buffer.from('photo bytes')]), 11);
    expect(readFileSync(target.path, 'utf8')).toBe('photo bytes');
  });

  it('leaves no file behind when the bytes fail, even before the file had opened', async () => {
    // The failure comes before the file's open has finished: the file it then creates must go too.
    const targets = Array.from({ length: 50 }, slot);
    for (const target of targets) await expect(writePhotoTarget(target, failingAtOnce(), 10)).rejects.toThrow('does not inflate');
    expect(targets.filter((target) => existsSync(target.path))).toEqual([]);
  });

  it('never removes a file that was there before (the slot taken)', async () => {
    const target = slot();
    writeFileSync(target.path, 'not ours');
    await expect(writePhotoTarget(target, Readable.from([Buffer.from('photo')]), 5)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(target.path, 'utf8')).toBe('not ours');
    expect(readdirSync(uploads)).toContain(target.path.split('/').pop());
  });
});
