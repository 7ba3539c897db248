import { beforeEach, expect, it } from '@jest/globals';
import { DeletePhoto, ListPhotos, LocatePhoto, RegisterPhoto, RequestPhotoUpload, type Photo, type PhotoSource, type UploadParameters } from '@vault/contracts';
import type { TestDatabase } from '@vault/testing';
import type { MediaStack } from './media-stack.js';
import { htmlFile, textFile, tinyGif, tinyPng, twelveMegabytes } from '@vault/testing';

/** What differs between the two stores; the behaviour below is the same for both. */
export interface StoreUnderTest {
  stack(): MediaStack;
  db(): TestDatabase;
  /** PUTs a body to an upload URL as the browser would, with the headers handed over with it. */
  put(upload: UploadParameters, body: Buffer, contentType: string): Promise<{ status: number }>;
  /** Every object that holds bytes (a spent upload slot's empty tombstone holds none). */
  keys(): Promise<string[]>;
  /** The bytes behind a located photo, read as the gateway would. */
  read(source: PhotoSource): Promise<Buffer>;
}

export async function failureOf(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return { status: (error as { status: number }).status, message: (error as Error).message };
  }
  throw new Error('The call succeeded; a refusal was expected');
}

/** The spec's flow: upload parameters, a direct PUT, then registration. */
export async function uploadPhoto(store: StoreUnderTest, body: Buffer, contentType: string): Promise<Photo> {
  const upload = await store.stack().rpc.send(RequestPhotoUpload, {});
  expect((await store.put(upload, body, contentType)).status).toBe(200);
  return store.stack().rpc.send(RegisterPhoto, { photoURL: upload.uploadURL });
}

export function describeMediaBehaviour(store: StoreUnderTest) {
  const rpc = () => store.stack().rpc;
  const rows = async () => store.db().query<{ n: string }>('select (select count(*) from media.photos) + (select count(*) from media.uploads) as n');

  // Erasing before each test exercises erase-all too, and lets each test say "nothing is left".
  beforeEach(async () => {
    await store.stack().eraser.eraseEverything();
  });

  it('registers a real PNG uploaded to its one-time URL, and gives it back with the type its bytes declare', async () => {
    const png = tinyPng();
    const photo = await uploadPhoto(store, png, 'image/png');
    expect(photo).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      objectPath: `/objects/photos/${photo.id}`,
      createdAt: expect.any(String),
      contentType: 'image/png',
      size: png.length,
    });
    expect(await store.keys()).toEqual([`photos/${photo.id}`]);

    const located = await rpc().send(LocatePhoto, { id: photo.id });
    expect(located).toMatchObject({ id: photo.id, contentType: 'image/png', size: png.length });
    expect((await store.read(located.source)).equals(png)).toBe(true);

    const [row] = await store.db().query('select object_key, content_type, size from media.photos');
    expect(row).toEqual({ object_key: `photos/${photo.id}`, content_type: 'image/png', size: png.length });
  });

  it('takes the type from the bytes, never from the upload header', async () => {
    const gif = await uploadPhoto(store, tinyGif(), 'image/png');
    expect(gif.contentType).toBe('image/gif');
    expect((await rpc().send(LocatePhoto, { id: gif.id })).contentType).toBe('image/gif');
  });

  it('lists every photo newest first, a page at a time', async () => {
    const first = await uploadPhoto(store, tinyPng(), 'image/png');
    const second = await uploadPhoto(store, tinyGif(), 'image/gif');
    const third = await uploadPhoto(store, tinyPng(), 'image/png');
    expect((await rpc().send(ListPhotos, {})).map((p) => p.id)).toEqual([third.id, second.id, first.id]);
    expect((await rpc().send(ListPhotos, { limit: '2', offset: '1' })).map((p) => p.id)).toEqual([second.id, first.id]);
    expect(await failureOf(rpc().forward(ListPhotos, { limit: 'ten' }))).toEqual({ status: 400, message: 'limit: must be a whole number' });
  });

  it.each([
    ['a 12 MB file', twelveMegabytes, 'image/png', 413, 'The photo is larger than 10 MB'],
    ['a text file named .png', textFile, 'image/png', 415, 'The file is not an image (jpeg, png, gif or webp)'],
    ['an HTML file sent as image/png', htmlFile, 'image/png', 415, 'The file is not an image (jpeg, png, gif or webp)'],
    ['an empty file', () => Buffer.alloc(0), 'image/jpeg', 415, 'The file is not an image (jpeg, png, gif or webp)'],
  ])('refuses %s with a 4xx and keeps nothing of it', async (_name, body, contentType, status, message) => {
    const upload = await rpc().send(RequestPhotoUpload, {});
    const { uploadURL } = upload;
    const put = await store.put(upload, body(), contentType);
    // The bucket takes any PUT and registration refuses it; the embedded store may refuse the PUT itself.
    if (put.status === 200) {
      expect(await failureOf(rpc().send(RegisterPhoto, { photoURL: uploadURL }))).toEqual({ status, message });
    } else {
      expect(put.status).toBe(status);
      expect((await failureOf(rpc().send(RegisterPhoto, { photoURL: uploadURL }))).status).toBe(404);
    }
    expect(await store.keys()).toEqual([]);
    expect(await rpc().send(ListPhotos, {})).toEqual([]);
  });

  it('refuses URLs it did not issue, and an issued URL registered a second time', async () => {
    const upload = await rpc().send(RequestPhotoUpload, {});
    const { uploadURL } = upload;
    expect((await store.put(upload, tinyPng(), 'image/png')).status).toBe(200);
    const forged = uploadURL.replace(/uploads\/[0-9a-f-]{36}/, 'uploads/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11');
    expect(await failureOf(rpc().send(RegisterPhoto, { photoURL: forged }))).toEqual({
      status: 404,
      message: 'This upload URL was not issued by the vault, or its photo is already registered',
    });
    for (const photoURL of ['https://elsewhere.example/uploads/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11', 'not a url at all', '/objects/photos/x']) {
      expect(await failureOf(rpc().send(RegisterPhoto, { photoURL }))).toEqual({
        status: 400,
        message: 'photoURL: is not an upload URL issued by this vault',
      });
    }
    expect(await failureOf(rpc().forward(RegisterPhoto, {}))).toEqual({ status: 400, message: 'photoURL: is required' });

    const photo = await rpc().send(RegisterPhoto, { photoURL: uploadURL });
    expect((await failureOf(rpc().send(RegisterPhoto, { photoURL: uploadURL }))).status).toBe(404);
    expect(await store.keys()).toEqual([`photos/${photo.id}`]);
  });

  it('keeps an issued URL usable when it is registered before anything was uploaded', async () => {
    const upload = await rpc().send(RequestPhotoUpload, {});
    const { uploadURL } = upload;
    expect(await failureOf(rpc().send(RegisterPhoto, { photoURL: uploadURL }))).toEqual({ status: 404, message: 'Nothing was uploaded to this URL' });
    expect((await store.put(upload, tinyPng(), 'image/png')).status).toBe(200);
    expect((await rpc().send(RegisterPhoto, { photoURL: uploadURL })).contentType).toBe('image/png');
  });

  it('deletes a photo for good: its row, its object, its location', async () => {
    const kept = await uploadPhoto(store, tinyPng(), 'image/png');
    const gone = await uploadPhoto(store, tinyGif(), 'image/gif');
    expect(await rpc().send(DeletePhoto, { id: gone.id })).toEqual({ id: gone.id });
    expect(await store.keys()).toEqual([`photos/${kept.id}`]);
    expect((await rpc().send(ListPhotos, {})).map((p) => p.id)).toEqual([kept.id]);
    expect(await failureOf(rpc().send(LocatePhoto, { id: gone.id }))).toEqual({ status: 404, message: 'Photo not found' });
    expect(await failureOf(rpc().send(DeletePhoto, { id: gone.id }))).toEqual({ status: 404, message: 'Photo not found' });
    expect(await failureOf(rpc().forward(LocatePhoto, { id: '../../etc/passwd' }))).toEqual({ status: 400, message: 'id: must be a valid id' });
  });

  it('erases every row and every object it owns, pending uploads included', async () => {
    await uploadPhoto(store, tinyPng(), 'image/png');
    await uploadPhoto(store, tinyGif(), 'image/gif');
    const upload = await rpc().send(RequestPhotoUpload, {});
    const { uploadURL } = upload;
    await store.put(upload, tinyPng(), 'image/png');
    expect((await store.keys()).length).toBe(3);

    // Every upload URL's row goes, the registered ones' too (they are kept until their URL expires).
    const erased = await store.stack().eraser.eraseEverything();
    expect(erased).toMatchObject({ photos: 2, uploads: 3 });
    // Two photos and the pending upload, and in a bucket the spent slots' empty tombstones.
    expect(erased.objects).toBeGreaterThanOrEqual(3);
    expect(await store.keys()).toEqual([]);
    expect(await rows()).toEqual([{ n: '0' }]);
    expect(await failureOf(rpc().send(RegisterPhoto, { photoURL: uploadURL }))).toMatchObject({ status: 404 });
    // And it can be run again (a retry after a partial failure).
    expect(await store.stack().eraser.eraseEverything()).toEqual({ photos: 0, uploads: 0, objects: 0 });
  });
}
