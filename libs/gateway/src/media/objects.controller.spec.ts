import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PhotoLocation, RpcContract } from '@vault/contracts';
import { RpcClient, RpcFailure } from '@vault/transport';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorFilter } from '../http/error.filter.js';
import { addSecurityHeaders } from '../http/security-headers.js';
import { ObjectsController } from './objects.controller.js';

const ID = '6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('GET /objects/photos/:id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-objects-controller-'));
  const located: PhotoLocation = { id: ID, contentType: 'image/gif', size: GIF.length, source: { kind: 'file', path: join(dir, 'photos', ID) } };
  const calls: unknown[] = [];
  let app: NestFastifyApplication;
  let base: string;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(base + path, { headers });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    mkdirSync(join(dir, 'photos'));
    writeFileSync(join(dir, 'photos', ID), GIF);
    // media-svc as the gateway sees it: one RPC that authorises and locates.
    const rpc = {
      forward: async (contract: RpcContract, data: { id: string }) => {
        calls.push({ pattern: contract.pattern, data });
        if (data.id !== ID) throw RpcFailure.notFound('Photo not found');
        return located;
      },
    };
    @Module({
      controllers: [ObjectsController],
      providers: [
        { provide: RpcClient, useValue: rpc },
        { provide: APP_FILTER, useFactory: () => new ErrorFilter() },
      ],
    })
    class TestModule {}
    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false, abortOnError: false });
    // As the vault's HTTP server has it (configureHttpServer): the app's policy on every answer.
    addSecurityHeaders(app.getHttpAdapter().getInstance());
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams the bytes with the type media-svc read from them, with an ETag', async () => {
    const response = await get(`/objects/photos/${ID}`);
    expect(response.status).toBe(200);
    expect(response.body.equals(GIF)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/gif',
      'content-length': String(GIF.length),
      etag: `"${ID}"`,
    });
    expect(calls.at(-1)).toEqual({ pattern: 'media.photos.locate', data: { id: ID } });
  });

  it('serves it inline, under a policy that runs nothing and sandboxes it, should it be opened as a page', async () => {
    const response = await get(`/objects/photos/${ID}`);
    expect(response.headers).toMatchObject({
      'content-disposition': 'inline',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'x-content-type-options': 'nosniff',
    });
    // Only the photo's answers: every other keeps the app's policy.
    const other = await get('/objects/elsewhere');
    expect(other.headers['content-security-policy']).toMatch(/^default-src 'self'/);
  });

  it('answers 304 to a browser that has it, after media-svc has said it still exists', async () => {
    const before = calls.length;
    const response = await get(`/objects/photos/${ID}`, { 'if-none-match': `W/"${ID}"` });
    expect(response.status).toBe(304);
    expect(response.body.length).toBe(0);
    expect(calls.length).toBe(before + 1);
  });

  it("passes on media-svc's refusal as status and plain text", async () => {
    const response = await get('/objects/photos/00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.body.toString()).toBe('Photo not found');
  });
});
