import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RegisterPhoto, RequestPhotoUpload } from '@vault/contracts';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UploadSignature } from '../src/storage/upload-signature.js';
import { tinyPng, twelveMegabytes } from '@vault/testing';
import { describeMediaBehaviour, failureOf, uploadPhoto, type StoreUnderTest } from './media.behaviour.js';
import { describePhotoContent } from './photo-content.behaviour.js';
import { filesUnder, startMediaStack, type MediaStack } from './media-stack.js';

describe('media-svc with the embedded file store and its own upload route, and PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-objects-'));
  const signingKey = randomBytes(32);
  let db: TestDatabase;
  let stack: MediaStack;

  const put = (url: string, body: Buffer | string | ReadableStream, headers: Record<string, string> = {}) =>
    fetch(stack.url + url, { method: 'PUT', body: body as BodyInit, headers, duplex: 'half' } as RequestInit);
  const issue = async () => (await stack.rpc.send(RequestPhotoUpload, {})).uploadURL;

  beforeAll(async () => {
    db = await createTestDatabase();
    stack = await startMediaStack(db.url, { store: { kind: 'file', dir, signingKey } });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const fileStore: StoreUnderTest = {
    stack: () => stack,
    db: () => db,
    put: (upload, body, contentType) => put(upload.uploadURL, body, { 'content-type': contentType, ...upload.uploadHeaders }),
    // Everything in the folder, half-written uploads included.
    keys: () => filesUnder(dir),
    read: async (source) => {
      if (source.kind !== 'file') throw new Error(`expected a file, got ${source.kind}`);
      expect(source.path.startsWith(dir)).toBe(true);
      return readFile(source.path);
    },
  };

  describeMediaBehaviour(fileStore);
  describePhotoContent(fileStore);

  it('issues a path on its own origin, signed, for a key it chose', async () => {
    const url = new URL(await issue(), 'http://vault.test');
    expect(url.pathname).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect(Number(url.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(290);
    expect(Number(url.searchParams.get('expires')) - Date.now() / 1000).toBeLessThanOrEqual(300);
    expect(url.searchParams.get('signature')).toMatch(/^[\w-]{43}$/);
  });

  it('accepts each URL once, and only as signed, before it expires', async () => {
    const uploadURL = await issue();
    const url = new URL(uploadURL, 'http://vault.test');
    const key = url.pathname.slice('/objects/'.length);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const expired = new UploadSignature(signingKey, () => Date.now() - 3_600_000).issue(key, 600);

    const refusals: Array<[string, string]> = [
      [`${url.pathname}`, 'This upload URL is not valid'],
      [`${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${'A'.repeat(43)}`, 'This upload URL is not valid'],
      [`${tampered.pathname}${tampered.search}`, 'This upload URL is not valid'],
      [`${url.pathname}?${new URLSearchParams(expired)}`, 'This upload URL has expired'],
    ];
    for (const [path, message] of refusals) {
      const response = await put(path, tinyPng(), { 'content-type': 'image/png' });
      expect({ status: response.status, message: (await response.json()).message }).toEqual({ status: 403, message });
    }
    expect((await put(uploadURL, tinyPng(), { 'content-type': 'image/png' })).status).toBe(200);
    const again = await put(uploadURL, Buffer.from('<html>swap</html>'), { 'content-type': 'image/png' });
    expect(again.status).toBe(403);
    // The first file is the one that stays, and it registers.
    expect((await stack.rpc.send(RegisterPhoto, { photoURL: uploadURL })).contentType).toBe('image/png');
    expect((await put(uploadURL, tinyPng(), { 'content-type': 'image/png' })).status).toBe(403);
    expect((await put('/objects/uploads/not-a-uuid?expires=1&signature=x', tinyPng())).status).toBe(404);
  });

  it('refuses a body over 10 MB while it streams, without a length announced, and keeps nothing of it', async () => {
    const uploadURL = await issue();
    const big = twelveMegabytes();
    const chunks = Array.from({ length: 48 }, (_, i) => big.subarray(i * 262_144, (i + 1) * 262_144));
    const response = await put(uploadURL, Readable.toWeb(Readable.from(chunks)) as ReadableStream, { 'content-type': 'image/png' });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe('The photo is larger than 10 MB');
    expect(await filesUnder(dir)).toEqual([]);
    // The URL is spent: a refused upload is not retried on the same URL.
    expect((await put(uploadURL, tinyPng(), { 'content-type': 'image/png' })).status).toBe(403);
  });

  it('refuses an announced length over 10 MB before reading the body', async () => {
    const response = await put(await issue(), twelveMegabytes(), { 'content-type': 'application/octet-stream' });
    expect(response.status).toBe(413);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('takes any content type as raw bytes, and refuses JSON or text bodies as not images', async () => {
    const octets = await issue();
    expect((await put(octets, tinyPng(), { 'content-type': 'application/octet-stream' })).status).toBe(200);
    expect((await stack.rpc.send(RegisterPhoto, { photoURL: octets })).contentType).toBe('image/png');
    const untyped = await issue();
    expect((await put(untyped, tinyPng())).status).toBe(200);
    for (const contentType of ['application/json', 'text/plain']) {
      const response = await put(await issue(), contentType === 'application/json' ? '{"a":1}' : 'notes', { 'content-type': contentType });
      expect(response.status).toBe(415);
    }
  });

  it('keeps the folder and its files owner-only', async () => {
    const photo = await uploadPhoto(fileStore, tinyPng(), 'image/png');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'photos'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'photos', photo.id))).mode & 0o777).toBe(0o600);
  });

  it('answers registration of a URL whose PUT was refused with a 404, not a 5xx', async () => {
    const uploadURL = await issue();
    await put(uploadURL, twelveMegabytes(), { 'content-type': 'image/png' });
    expect((await failureOf(stack.rpc.send(RegisterPhoto, { photoURL: uploadURL }))).status).toBe(404);
  });
});
