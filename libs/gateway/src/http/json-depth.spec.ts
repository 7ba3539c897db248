import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { MAX_JSON_DEPTH, NESTED_TOO_DEEP, depthBoundedJsonParser, nestsDeeperThan } from './json-depth.js';

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('nestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the limit and one past it', () => {
    expect(nestsDeeperThan(deepArray(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(deepArray(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(deepObject(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(deepObject(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`{"title":${deepArray(4500)}}`, MAX_JSON_DEPTH)).toBe(true);
  });

  it('measures depth, not the number of brackets', () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] }))), 3)).toBe(false);
    expect(nestsDeeperThan('{"title":"x","content":"y"}', 1)).toBe(false);
    expect(nestsDeeperThan('1', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ content: '[[[[{{{{'.repeat(100) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ content: 'say \\"[[[[\\" and "{{{{"' }), 1)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify({ content: 'é[日本]' })), 1)).toBe(false);
  });
});

describe('depthBoundedJsonParser', () => {
  let server: FastifyInstance;

  beforeAll(async () => {
    server = Fastify();
    server.removeContentTypeParser('application/json');
    server.addContentTypeParser('application/json', { parseAs: 'buffer' }, depthBoundedJsonParser(server));
    server.post('/echo', async (request) => request.body);
    await server.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => server.close());

  const post = async (body: string) => {
    const response = await fetch(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { statusCode: response.status, json: await response.json() };
  };

  it('refuses a body nested too deep with 400 and says the limit', async () => {
    const response = await post(`{"title":${deepArray(4500)}}`);
    expect(response.statusCode).toBe(400);
    expect(response.json.message).toBe(NESTED_TOO_DEEP);
    expect(NESTED_TOO_DEEP).toBe('body: nested deeper than 32 levels');
  });

  it('parses a body within the limit as Fastify does, prototype poisoning still refused', async () => {
    expect((await post(deepObject(MAX_JSON_DEPTH))).statusCode).toBe(200);
    expect((await post('{"title":"x"}')).json).toEqual({ title: 'x' });
    expect((await post('{"__proto__":{"admin":true}}')).statusCode).toBe(400);
    expect((await post('{"title":')).statusCode).toBe(400);
  });
});
