import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestPhotoUpload } from '@vault/contracts';
import { createTestDatabase, tinyPng, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesUnder, startMediaStack, type MediaStack } from './media-stack.js';

/**
 * Finding 4 in the embedded store: the same guarantees as the bucket's. An
 * upload URL takes one file (file-store.int-spec.ts shows the second PUT
 * refused), and nothing is written after an erase, not even by an upload
 * that was already streaming when it began.
 */
describe('upload slots in the embedded file store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-slots-'));
  let db: TestDatabase;
  let stack: MediaStack;

  const issue = async () => (await stack.rpc.send(RequestPhotoUpload, {})).uploadURL;
  const put = (url: string, body: Buffer | ReadableStream) =>
    fetch(stack.url + url, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': 'image/png' }, duplex: 'half' } as RequestInit);

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
    body.enqueue(png.subarray(20));
    body.close();

    const response = await answer;
    expect(response.status).toBe(403);
    expect(await filesUnder(dir)).toEqual([]);
  });
});
