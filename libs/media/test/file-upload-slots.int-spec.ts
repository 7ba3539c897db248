import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestPhotoUpload } from '@vault/contracts';
import { createTestDatabase, tinyPng, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClientRequest, request as httpRequest } from 'node:http';
import pg from 'pg';
import { filesUnder, startMediaStack, type MediaStack } from './media-stack.js';
import { EXPIRING_UPLOADS, describeUploadExpiry } from './upload-expiry.behaviour.js';

/**
 * Finding 4 (issue 13) in the embedded store: the same guarantees as the
 * bucket's. An upload URL takes one file (file-store.int-spec.ts shows the
 * second PUT refused), and nothing is written after an erase, not even by an
 * upload that was already streaming when it began. Issue 31: no half-written
 * file outlives its upload (finding 1), and nothing that never becomes a
 * photo stays (finding 2).
 */
describe('upload slots in the embedded file store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-slots-'));
  let db: TestDatabase;
  let stack: MediaStack;

  const issue = async () => stack.url + (await stack.rpc.send(RequestPhotoUpload, {})).uploadURL;
  const put = (url: string, body: Buffer | ReadableStream) =>
    fetch(url, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': 'image/png' }, duplex: 'half' } as RequestInit);

  beforeAll(async () => {
    db = await createTestDatabase();
    stack = await startMediaStack(db.url, { store: { kind: 'file', dir, signingKey: randomBytes(32) } });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a PUT to a URL issued before an erase, and writes nothing', async () => {
    const uploadURL = await issue();
    await stack.eraser.eraseEverything();
    expect((await put(uploadURL, tinyPng())).status).toBe(403);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('keeps nothing of an upload that was streaming while the vault was erased', async () => {
    const uploadURL = await issue();
    const png = tinyPng();
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        body = controller;
      },
    });
    body.enqueue(png.subarray(0, 20));
    const answer = put(uploadURL, stream);

    // The PUT was accepted and its first bytes are on disk when the erase runs.
    for (let i = 0; i < 100 && (await filesUnder(dir)).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await filesUnder(dir)).toEqual([expect.stringMatching(/^\.partial\//)]);
    await stack.eraser.eraseEverything();
    // The erase took its half-written file too, not only what the upload removes when it ends (issue 31, finding 1).
    expect(await filesUnder(dir)).toEqual([]);
    body.enqueue(png.subarray(20));
    body.close();

    const response = await answer;
    expect(response.status).toBe(403);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('keeps no half-written file of an upload whose connection is cut, even one cut before its body was read', async () => {
    await stack.eraser.eraseEverything();
    // Cut while streaming: its first bytes were on disk.
    const streamed = await openUpload(await issue());
    for (let i = 0; i < 100 && (await filesUnder(dir)).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await filesUnder(dir)).toEqual([expect.stringMatching(/^\.partial\//)]);
    streamed.destroy();
    expect(
      await eventually(
        () => filesUnder(dir),
        (files) => files.length === 0,
      ),
    ).toEqual([]);

    // Cut while the route still checks the URL: its row is held, so the route waits there until the connection is gone.
    const uploadURL = await issue();
    const key = new URL(uploadURL, 'http://vault.test').pathname.slice('/objects/'.length);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from media.uploads where object_key = $1 for update', [key]);
      const early = await openUpload(uploadURL);
      const waiting = () =>
        db.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
      expect((await eventually(waiting, ([row]) => row.n > 0))[0].n).toBeGreaterThan(0);
      early.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // The route spends the URL, then finds the body gone: nothing is written, and nothing waits for ever.
    const spent = () => db.query<{ spent: boolean }>('select uploaded_at is not null as spent from media.uploads where object_key = $1', [key]);
    expect(await eventually(spent, ([row]) => row.spent)).toEqual([{ spent: true }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await filesUnder(dir)).toEqual([]);
  });

  describe('when upload URLs expire', () => {
    const expiringDir = mkdtempSync(join(tmpdir(), 'vault-expiring-'));
    let expiringDb: TestDatabase;
    let expiring: MediaStack;

    beforeAll(async () => {
      expiringDb = await createTestDatabase();
      expiring = await startMediaStack(expiringDb.url, { store: { kind: 'file', dir: expiringDir, signingKey: randomBytes(32) }, ...EXPIRING_UPLOADS });
    });

    afterAll(async () => {
      await expiring?.close();
      await expiringDb?.drop();
      rmSync(expiringDir, { recursive: true, force: true });
    });

    describeUploadExpiry({
      stack: () => expiring,
      db: () => expiringDb,
      put: (upload, body, contentType) =>
        fetch(expiring.url + upload.uploadURL, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': contentType, ...upload.uploadHeaders } }),
      keys: () => filesUnder(expiringDir),
    });
  });
});

/** A PUT that sends its headers and a first chunk, then waits: `destroy()` cuts its connection. */
async function openUpload(url: string): Promise<ClientRequest> {
  const target = new URL(url);
  const request = httpRequest(target, { method: 'PUT', headers: { 'content-type': 'image/png', 'content-length': String(tinyPng().length) } });
  request.on('error', () => undefined);
  request.write(tinyPng().subarray(0, 20));
  await new Promise((resolve) => setImmediate(resolve));
  return request;
}

/** Polls until `holds` or two seconds have passed; answers what it last saw. */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 2000;
  let value = await read();
  while (!holds(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}
