import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { PHOTO_MAX_BYTES, RegisterPhoto, RequestPhotoUpload, type UploadParameters } from '@vault/contracts';
import { createTestDatabase, tinyGif, tinyPng, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { failureOf } from './media.behaviour.js';
import { startMediaStack, type MediaStack } from './media-stack.js';
import { EXPIRING_UPLOADS, describeUploadExpiry } from './upload-expiry.behaviour.js';
import { assertS3Answers, dropBucket, keysIn, s3Client, testS3 } from './s3-server.js';

/** How often this spec's media-svc looks for objects that arrived after an erase. */
const SWEEP_MS = 250;
/** "Within a bounded time": a few sweeps, with room for a loaded machine. */
const BOUND_MS = 10 * SWEEP_MS;

/**
 * Finding 4 (issue 13) against the real S3 server: an upload URL is good for
 * one object, and an erase also covers the objects that old URLs bring in
 * after it. Issue 31, finding 2: nothing that never becomes a photo stays.
 */
describe('upload slots in an S3-compatible bucket (distributed mode)', () => {
  const s3 = testS3();
  const bucket = `vault-it-${randomBytes(6).toString('hex')}`;
  const admin = s3Client(s3);
  let db: TestDatabase;
  let stack: MediaStack;

  const start = () => startMediaStack(db.url, { store: { kind: 's3', bucket, forcePathStyle: true, ...s3 }, uploadSweepIntervalMs: SWEEP_MS });
  const issue = (): Promise<UploadParameters> => stack.rpc.send(RequestPhotoUpload, {});
  /** A browser's PUT: the file, its type and every header the vault handed over with the URL. */
  const put = (parameters: UploadParameters, body: Buffer, contentType = 'image/png') =>
    fetch(parameters.uploadURL, {
      method: 'PUT',
      body: body as BodyInit,
      headers: { 'content-type': contentType, ...parameters.uploadHeaders },
    });
  const objects = () => keysIn(admin, bucket);
  const bytesOf = async (key: string) =>
    Buffer.from((await (await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray()) ?? []);

  /** Polls the bucket until it holds nothing, or the bound passes; answers what it last saw. */
  async function emptiedWithinBound(): Promise<{ keys: string[]; ms: number }> {
    const started = Date.now();
    let keys = await objects();
    while (keys.length > 0 && Date.now() - started < BOUND_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      keys = await objects();
    }
    return { keys, ms: Date.now() - started };
  }

  beforeAll(async () => {
    await assertS3Answers(s3);
    db = await createTestDatabase();
    stack = await start();
  });

  afterAll(async () => {
    await stack?.close();
    await dropBucket(admin, bucket).catch(() => undefined);
    admin.destroy();
    await db?.drop();
  });

  it('removes, within a bounded time, what an upload URL issued before an erase PUTs after it', async () => {
    const pending = await issue();
    const registered = await issue();
    expect((await put(registered, tinyPng())).status).toBe(200);
    await stack.rpc.send(RegisterPhoto, { photoURL: registered.uploadURL });
    const unused = await issue();

    await stack.eraser.eraseEverything();
    expect(await objects()).toEqual([]);

    // Every URL still takes its PUT at the bucket (a presigned URL cannot be revoked; the erase took the
    // registered one's tombstone too), but nothing stays.
    for (const parameters of [pending, registered, unused]) expect((await put(parameters, tinyGif())).status).toBe(200);
    const { keys, ms } = await emptiedWithinBound();
    expect(keys).toEqual([]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('keeps removing them after media-svc restarts: the watch is kept in its own schema', async () => {
    const issued = await issue();
    await stack.eraser.eraseEverything();
    await stack.close();
    stack = await start();

    expect((await put(issued, tinyPng())).status).toBe(200);
    const { keys } = await emptiedWithinBound();
    expect(keys).toEqual([]);
  });

  it('takes one object per upload URL: a second PUT before registration, and one after it, store nothing', async () => {
    await stack.eraser.eraseEverything();
    const parameters = await issue();
    const url = new URL(parameters.uploadURL);
    const key = url.pathname.slice(`/${bucket}/`.length);

    const first = tinyPng();
    expect((await put(parameters, first)).status).toBe(200);
    const swap = await put(parameters, tinyGif());
    expect(swap.status).toBe(412);
    expect((await bytesOf(key)).equals(first)).toBe(true);
    // The condition is part of the signature, and handed over with the URL for the browser to send.
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host;if-none-match');
    expect(parameters.uploadHeaders).toEqual({ 'If-None-Match': '*' });
    // Without the header the signature does not hold: a client cannot drop the condition.
    const unconditional = await fetch(parameters.uploadURL, { method: 'PUT', body: tinyGif() as BodyInit });
    expect(unconditional.status).toBeGreaterThanOrEqual(400);
    expect((await bytesOf(key)).equals(first)).toBe(true);

    const photo = await stack.rpc.send(RegisterPhoto, { photoURL: parameters.uploadURL });
    expect(photo.contentType).toBe('image/png');
    const after = await put(parameters, tinyGif());
    expect(after.status).toBe(412);
    // The photo, and the spent slot's empty tombstone, which holds no byte of anything uploaded.
    expect(await objects()).toEqual([`photos/${photo.id}`, key].sort());
    expect((await bytesOf(key)).length).toBe(0);
    expect((await bytesOf(`photos/${photo.id}`)).equals(first)).toBe(true);
  });

  it('deletes a refused upload at once, and within a bounded time whatever its URL still brings, which never registers', async () => {
    await stack.eraser.eraseEverything();
    for (const refused of [Buffer.from('not an image at all'), Buffer.alloc(PHOTO_MAX_BYTES + 1, 0x89)]) {
      const parameters = await issue();
      expect((await put(parameters, refused)).status).toBe(200);
      expect([415, 413]).toContain((await failureOf(stack.rpc.send(RegisterPhoto, { photoURL: parameters.uploadURL }))).status);
      // Not even an empty tombstone: nothing of it is kept (issue 31, finding 2).
      expect(await objects()).toEqual([]);
      // A presigned URL cannot be revoked: the bucket takes another PUT until it expires, and the sweep removes it.
      expect((await put(parameters, tinyPng())).status).toBe(200);
      const { keys, ms } = await emptiedWithinBound();
      expect(keys).toEqual([]);
      expect(ms).toBeLessThan(BOUND_MS);
      expect((await failureOf(stack.rpc.send(RegisterPhoto, { photoURL: parameters.uploadURL }))).status).toBe(404);
    }
  });

  describe('when upload URLs expire', () => {
    const expiringBucket = `vault-it-${randomBytes(6).toString('hex')}`;
    let expiringDb: TestDatabase;
    let expiring: MediaStack;

    beforeAll(async () => {
      expiringDb = await createTestDatabase();
      expiring = await startMediaStack(expiringDb.url, { store: { kind: 's3', bucket: expiringBucket, forcePathStyle: true, ...s3 }, ...EXPIRING_UPLOADS });
    });

    afterAll(async () => {
      await expiring?.close();
      await dropBucket(admin, expiringBucket).catch(() => undefined);
      await expiringDb?.drop();
    });

    describeUploadExpiry({
      stack: () => expiring,
      db: () => expiringDb,
      put: (upload, body, contentType) => put(upload, body, contentType),
      keys: () => keysIn(admin, expiringBucket),
    });
  });
});
