import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { RAW_BODY_ROUTE, UNTYPED_BODY, bodyTypeProblem, refuseNonJsonWrites } from './json-only-writes.js';

describe('bodyTypeProblem', () => {
  it('lets JSON through, with any charset, on every state-changing method', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])
        expect(bodyTypeProblem(method, { 'content-type': type, 'content-length': '2' })).toBeUndefined();
  });

  it('refuses forms, text/plain, multipart and other types, naming the type', () => {
    expect(bodyTypeProblem('POST', { 'content-type': 'application/x-www-form-urlencoded' })).toBe(
      'Content-Type: must be application/json, not application/x-www-form-urlencoded',
    );
    expect(bodyTypeProblem('PATCH', { 'content-type': 'text/plain;charset=UTF-8' })).toBe('Content-Type: must be application/json, not text/plain');
    expect(bodyTypeProblem('PUT', { 'content-type': 'multipart/form-data; boundary=x' })).toBe(
      'Content-Type: must be application/json, not multipart/form-data',
    );
    expect(bodyTypeProblem('DELETE', { 'content-type': 'application/json-patch+json' })).toBe(
      'Content-Type: must be application/json, not application/json-patch+json',
    );
    // A type without a body still names what the call would be: refused too.
    expect(bodyTypeProblem('POST', { 'content-type': 'text/plain', 'content-length': '0' })).toBe('Content-Type: must be application/json, not text/plain');
    expect(bodyTypeProblem('POST', { 'content-type': '' })).toBe('Content-Type: must be application/json (an empty one was sent)');
  });

  it('refuses a body without a type, and lets a bodiless call without one through', () => {
    expect(bodyTypeProblem('POST', { 'content-length': '17' })).toBe(UNTYPED_BODY);
    expect(bodyTypeProblem('PUT', { 'transfer-encoding': 'chunked' })).toBe(UNTYPED_BODY);
    expect(bodyTypeProblem('POST', {})).toBeUndefined();
    expect(bodyTypeProblem('DELETE', { 'content-length': '0' })).toBeUndefined();
  });

  it('leaves reads alone', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(bodyTypeProblem(method, { 'content-type': 'text/plain', 'content-length': '3' })).toBeUndefined();
  });
});

describe('refuseNonJsonWrites', () => {
  let server: FastifyInstance;
  let reached = 0;

  beforeAll(async () => {
    server = Fastify();
    refuseNonJsonWrites(server);
    server.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    server.post('/api/targets', async () => {
      reached++;
      return {};
    });
    server.put('/objects/uploads/:id', { config: { [RAW_BODY_ROUTE]: true } }, async () => {
      reached++;
      return {};
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => server.close());

  const send = async (method: string, path: string, contentType: string, body: string | Uint8Array<ArrayBuffer>) => {
    const response = await fetch(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}${path}`, {
      method,
      headers: { 'content-type': contentType },
      body,
    });
    return { statusCode: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  };

  it('answers 415 before the route runs', async () => {
    const response = await send('POST', '/api/targets', 'application/x-www-form-urlencoded', 'title=x');
    expect([response.statusCode, response.body, response.contentType]).toEqual([
      415,
      'Content-Type: must be application/json, not application/x-www-form-urlencoded',
      'text/plain; charset=utf-8',
    ]);
    expect(reached).toBe(0);
  });

  it('lets a route flagged for raw bodies take any type', async () => {
    const response = await send('PUT', '/objects/uploads/1', 'image/png', new Uint8Array([0x89, 0x50]));
    expect(response.statusCode).toBe(200);
    expect(reached).toBe(1);
  });
});
