import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileObjectStore } from './file-object.store.js';
import { ObjectStoreError, photoKey } from './object.store.js';

describe('the file store read into a given buffer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-file-store-'));
  const store = new FileObjectStore(dir, randomBytes(32));
  const into = Buffer.alloc(1000);

  beforeAll(() => store.prepare());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a view of the bytes in the buffer, whether they fill it or not', async () => {
    for (const size of [0, 1, 999, 1000]) {
      const bytes = randomBytes(size);
      const key = photoKey(randomUUID());
      await store.writePhoto(key, bytes);
      const read = await store.read(key, { into });
      expect(read.equals(bytes)).toBe(true);
      expect(read.buffer).toBe(into.buffer);
    }
  });

  it('refuses a file larger than the buffer as too large', async () => {
    const key = photoKey(randomUUID());
    await store.writePhoto(key, randomBytes(1001));
    const failure = await store.read(key, { into }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ObjectStoreError);
    expect((failure as ObjectStoreError).reason).toBe('too-large');
  });
});
