import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { LocatePhoto, RegisterPhoto, RequestPhotoUpload } from '@vault/contracts';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { tinyPng } from '@vault/testing';
import { describeMediaBehaviour, type StoreUnderTest } from './media.behaviour.js';
import { describePhotoContent } from './photo-content.behaviour.js';
import { startMediaStack, type MediaStack } from './media-stack.js';
import { assertS3Answers, dropBucket, keysHoldingBytes, s3Client, testS3 } from './s3-server.js';

describe('media-svc with an S3-compatible bucket (distributed mode) and PostgreSQL', () => {
  const s3 = testS3();
  const bucket = `vault-it-${randomBytes(6).toString('hex')}`;
  const admin = s3Client(s3);
  let db: TestDatabase;
  let stack: MediaStack;

  beforeAll(async () => {
    await assertS3Answers(s3);
    db = await createTestDatabase();
    stack = await startMediaStack(db.url, {
      store: { kind: 's3', bucket, forcePathStyle: true, ...s3 },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await dropBucket(admin, bucket).catch(() => undefined);
    admin.destroy();
    await db?.drop();
  });

  const bucketStore: StoreUnderTest = {
    stack: () => stack,
    db: () => db,
    put: (upload, body, contentType) =>
      fetch(upload.uploadURL, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': contentType, ...upload.uploadHeaders } }),
    keys: () => keysHoldingBytes(admin, bucket),
    read: async (source) => {
      if (source.kind !== 'url') throw new Error(`expected a presigned URL, got ${source.kind}`);
      const response = await fetch(source.url);
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    },
  };

  describeMediaBehaviour(bucketStore);
  describePhotoContent(bucketStore);

  it('created its bucket at start, and signs PUT URLs into it that expire in 5 minutes', async () => {
    await expect(admin.send(new HeadBucketCommand({ Bucket: bucket }))).resolves.toBeDefined();
    const { uploadURL } = await stack.rpc.send(RequestPhotoUpload, {});
    const url = new URL(uploadURL);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toMatch(new RegExp(`^/${bucket}/uploads/[0-9a-f-]{36}$`));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    // No checksum of an empty body signed in: the browser's PUT must not have to match one.
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });

  it('locates photos with a short-lived presigned GET, never by passing the bytes along', async () => {
    const upload = await stack.rpc.send(RequestPhotoUpload, {});
    const { uploadURL } = upload;
    await bucketStore.put(upload, tinyPng(), 'text/html');
    const photo = await stack.rpc.send(RegisterPhoto, { photoURL: uploadURL });
    const { source, contentType } = await stack.rpc.send(LocatePhoto, { id: photo.id });
    // What the browser claimed at upload is stored with the object, but never used to serve it.
    expect(contentType).toBe('image/png');
    expect(source.kind).toBe('url');
    const url = new URL((source as { url: string }).url);
    expect(url.pathname).toBe(`/${bucket}/photos/${photo.id}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
  });
});
