import { expect, it } from '@jest/globals';
import { PHOTO_MAX_BYTES, RegisterPhoto, RequestPhotoUpload, type UploadParameters } from '@vault/contracts';
import { htmlFile, textFile, tinyGif, tinyPng, type TestDatabase } from '@vault/testing';
import type { MediaOptions } from '../src/index.js';
import { failureOf } from './media.behaviour.js';
import type { MediaStack } from './media-stack.js';

/** Upload URLs that expire within seconds, and a sweep that follows them closely. */
export const EXPIRING_UPLOADS = {
  uploadUrlTtlSeconds: 4,
  registrationGraceSeconds: 1,
  latePutGraceSeconds: 2,
  uploadSweepIntervalMs: 250,
} satisfies Omit<MediaOptions, 'migrate' | 'store'>;

/** "Shortly after": a few sweeps, with room for a loaded machine. */
const BOUND_MS = 2500;

/** What differs between the two stores; the behaviour below is the same for both. */
export interface ExpiringStore {
  stack(): MediaStack;
  db(): TestDatabase;
  /** PUTs a body to an upload URL as the browser would, with the headers handed over with it. */
  put(upload: UploadParameters, body: Buffer, contentType: string): Promise<{ status: number }>;
  /** Every key the store holds, an empty tombstone included. */
  keys(): Promise<string[]>;
}

/** Polls `check` until it holds or `untilMs` (epoch) has passed; answers what it last saw. */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, untilMs: number): Promise<T> {
  let value = await read();
  while (!holds(value) && Date.now() < untilMs) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/**
 * Issue 31, finding 2: nothing that never becomes a photo stays in the
 * store. What registration refuses is deleted at once; an upload not
 * registered when its URL expires is removed shortly after; and once a URL
 * can no longer write, its row and whatever its key held (a registered
 * upload's tombstone) go too. Runs on a stack with EXPIRING_UPLOADS.
 */
export function describeUploadExpiry(store: ExpiringStore) {
  const rpc = () => store.stack().rpc;
  const issue = () => rpc().send(RequestPhotoUpload, {});
  const register = (upload: UploadParameters) => rpc().send(RegisterPhoto, { photoURL: upload.uploadURL });
  const keyOf = (upload: UploadParameters) => /uploads\/[0-9a-f-]{36}/.exec(upload.uploadURL)![0];
  const uploadRows = async () => (await store.db().query<{ n: number }>('select count(*)::int as n from media.uploads'))[0].n;

  it('deletes from the store at once whatever registration refuses: too large, not an image, markup', async () => {
    await store.stack().eraser.eraseEverything();
    for (const [body, contentType] of [
      [Buffer.alloc(PHOTO_MAX_BYTES + 1, 0x89), 'image/png'],
      [textFile(), 'image/png'],
      [htmlFile(), 'image/png'],
      [Buffer.concat([tinyGif(), Buffer.from('<script>alert(1)</script>')]), 'image/gif'],
    ] as const) {
      const upload = await issue();
      const put = await store.put(upload, body, contentType);
      // The bucket takes any PUT and registration refuses it; the embedded store refuses an oversized PUT itself.
      if (put.status === 200) expect([413, 415]).toContain((await failureOf(register(upload))).status);
      else expect(put.status).toBe(413);
      expect(await store.keys()).toEqual([]);
      // It cannot be registered again, whatever its URL brought since.
      expect((await failureOf(register(upload))).status).toBe(404);
    }
  });

  it('removes an upload not registered when its URL expires, and every trace of the others once their URLs can no longer write', async () => {
    await store.stack().eraser.eraseEverything();
    const issuedAt = Date.now();
    const abandoned = await issue();
    const registered = await issue();
    expect((await store.put(abandoned, tinyPng(), 'image/png')).status).toBe(200);
    expect((await store.put(registered, tinyGif(), 'image/gif')).status).toBe(200);
    const photo = await register(registered);
    // Until its URL expires, an upload waits for its registration.
    expect(await store.keys()).toContain(keyOf(abandoned));

    const { uploadUrlTtlSeconds: ttl, registrationGraceSeconds: grace, latePutGraceSeconds: late } = EXPIRING_UPLOADS;
    const keys = await eventually(store.keys, (now) => !now.includes(keyOf(abandoned)), issuedAt + (ttl + grace) * 1000 + BOUND_MS);
    expect(keys).not.toContain(keyOf(abandoned));
    expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(ttl * 1000);
    expect(await failureOf(register(abandoned))).toEqual({
      status: 404,
      message: 'This upload URL was not issued by the vault, or its photo is already registered',
    });

    // No URL can write any more: no upload row is left, and no object but the photo.
    const settledBy = issuedAt + (ttl + late) * 1000 + BOUND_MS;
    expect(await eventually(uploadRows, (n) => n === 0, settledBy)).toBe(0);
    expect(await eventually(store.keys, (now) => now.length === 1, settledBy)).toEqual([`photos/${photo.id}`]);
  });
}
