import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadGatewayException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { openPhotoSource } from './photo-source.js';

const ID = '6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';
const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('opening a located photo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-photo-source-'));
  let server: Server;
  let base: string;

  beforeAll(async () => {
    mkdirSync(join(dir, 'photos'));
    writeFileSync(join(dir, 'photos', ID), BYTES);
    server = createServer((request, response) => {
      if (request.url === '/bucket/photo') response.end(BYTES);
      else response.writeHead(request.url === '/bucket/missing' ? 404 : 500).end('<Error/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams a file of the embedded store', async () => {
    expect(await read(await openPhotoSource({ kind: 'file', path: join(dir, 'photos', ID) }))).toEqual(BYTES);
  });

  it('answers 404 for a file that is gone, and refuses a path outside the store layout', async () => {
    await expect(openPhotoSource({ kind: 'file', path: join(dir, 'photos', ID.replace('6f', '00')) })).rejects.toThrow(NotFoundException);
    for (const path of ['/etc/passwd', join(dir, 'photos', `${ID}/../../x`), `photos/${ID}`]) {
      await expect(openPhotoSource({ kind: 'file', path })).rejects.toThrow(BadGatewayException);
    }
  });

  it('streams a presigned URL, and words the bucket’s failures as the gateway’s', async () => {
    expect(await read(await openPhotoSource({ kind: 'url', url: `${base}/bucket/photo` }))).toEqual(BYTES);
    await expect(openPhotoSource({ kind: 'url', url: `${base}/bucket/missing` })).rejects.toThrow(NotFoundException);
    await expect(openPhotoSource({ kind: 'url', url: `${base}/bucket/broken` })).rejects.toThrow(BadGatewayException);
    await expect(openPhotoSource({ kind: 'url', url: 'http://127.0.0.1:9/bucket/photo' })).rejects.toThrow(ServiceUnavailableException);
  });
});
