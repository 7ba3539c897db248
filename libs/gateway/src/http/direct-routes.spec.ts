import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, UnauthorizedException } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import * as contracts from '@vault/contracts';
import { HTTP_ROUTES, type RpcContract } from '@vault/contracts';
import { type RpcClient, RpcFailure } from '@vault/transport';
import type { FastifyInstance } from 'fastify';
import type { AccessCheck, AccessRule } from '../vault/access-check.js';
import { serveDirectly } from './direct-routes.js';
import { ErrorFilter } from './error.filter.js';
import { FORWARDED_ROUTES, forwardedRoutes } from './forwarded-routes.js';

const ID = '6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';

describe('the forwarded routes (every HTTP_ROUTES line with an rpc that Fastify serves directly)', () => {
  const calls: { pattern: string; data: Record<string, unknown> }[] = [];
  /** The rule each request was checked by; a request with `x-refuse` is refused as the access check refuses one without a session. */
  const checked: AccessRule[] = [];
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    // The services as the gateway sees them: each call recorded; a refusal comes back as the service's status.
    const rpc = {
      forward: async (contract: RpcContract, data: Record<string, unknown>) => {
        calls.push({ pattern: contract.pattern, data });
        if (data.refuse) throw RpcFailure.badRequest('Refused by the service');
        return { answeredBy: contract.pattern };
      },
    };
    const access = {
      check: async (request: { headers: Record<string, unknown> }, rule: AccessRule) => {
        checked.push(rule);
        if (request.headers['x-refuse']) throw new UnauthorizedException('Unauthorized');
      },
    } as unknown as AccessCheck;
    // Nest's error handler, which hands Fastify's errors to the app's filters, is registered with the app's routes.
    @Module({ providers: [{ provide: APP_FILTER, useFactory: () => new ErrorFilter() }] })
    class TestModule {}
    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false, abortOnError: false });
    serveDirectly(app.getHttpAdapter().getInstance() as unknown as FastifyInstance, forwardedRoutes(rpc as unknown as Pick<RpcClient, 'forward'>), access);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(() => app.close());

  /** One request with a body of raw JSON text (or none), as a client sends it. */
  const sendRaw = async (method: string, url: string, body?: string, headers: Record<string, string> = {}) => {
    calls.length = 0;
    checked.length = 0;
    const response = await fetch(base + url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    // A 2xx answer is the service's JSON; a refusal is the spec's plain text.
    const json = response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text;
    return { status: response.status, json, calls: [...calls] };
  };
  const send = (method: string, url: string, payload?: unknown) => sendRaw(method, url, payload === undefined ? undefined : JSON.stringify(payload));
  const urlOf = (path: string) => path.replace(/:\w+/g, ID);

  it('serves every line that names a contract, except the one the gateway streams itself', () => {
    const expected = Object.entries(HTTP_ROUTES)
      .filter(([, route]) => 'rpc' in route && !('forward' in route))
      .map(([name]) => name);
    expect(FORWARDED_ROUTES.map(([name]) => name)).toEqual(expected);
    expect(FORWARDED_ROUTES.map(([name]) => name)).not.toContain('photoFile');
  });

  it("forwards each route to its line's contract and answers its reply, with the method's status or the line's", async () => {
    for (const [, route] of FORWARDED_ROUTES) {
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the table names each contract; a test, not a bundle.
      const contract = contracts[route.rpc] as RpcContract;
      const isWrite = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const answer = await send(route.method, urlOf(route.path), isWrite ? {} : undefined);
      expect({ route: `${route.method} ${route.path}`, status: answer.status, json: answer.json, called: answer.calls.map((c) => c.pattern) }).toEqual({
        route: `${route.method} ${route.path}`,
        status: route.status ?? (route.method === 'POST' ? 201 : 200),
        json: { answeredBy: contract.pattern },
        called: [contract.pattern],
      });
    }
  });

  it("passes a write's body with the path's parameters over it: a body cannot name another record than the URL", async () => {
    const answer = await send('PATCH', `/api/targets/${ID}`, { title: 'Renamed', id: 'someone-else' });
    expect(answer.calls).toEqual([{ pattern: contracts.UpdateTarget.pattern, data: { title: 'Renamed', id: ID } }]);
  });

  it("passes a read's query (a page of the journal) and a delete's path, never a body there", async () => {
    expect((await send('GET', '/api/journal?limit=20&offset=40')).calls).toEqual([
      { pattern: contracts.ListJournal.pattern, data: { limit: '20', offset: '40' } },
    ]);
    expect((await send('DELETE', `/api/journal/${ID}`, { id: 'someone-else', extra: 1 })).calls).toEqual([
      { pattern: contracts.DeleteJournalEntry.pattern, data: { id: ID } },
    ]);
  });

  it('refuses a write whose body is not a JSON object with a 400, before any service hears of it', async () => {
    for (const payload of ['[1,2]', '"text"', '42', 'null', '']) {
      const answer = await sendRaw('POST', '/api/targets', payload);
      expect({ payload, status: answer.status, calls: answer.calls.length }).toEqual({ payload, status: 400, calls: 0 });
    }
  });

  it('checks every route as one that needs the owner, before its service hears of it; a refusal leaves through the error filter', async () => {
    for (const [, route] of FORWARDED_ROUTES) {
      const isWrite = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const refused = await sendRaw(route.method, urlOf(route.path), isWrite ? '{}' : undefined, { 'x-refuse': 'yes' });
      expect({ route: route.path, status: refused.status, text: refused.json, calls: refused.calls, rules: checked }).toEqual({
        route: route.path,
        status: 401,
        text: 'Unauthorized',
        calls: [],
        rules: [{ public: false, ownerOnly: false, survivesDestruction: false }],
      });
    }
  });

  it("answers a service's refusal with its status and message", async () => {
    const answer = await send('POST', '/api/targets', { refuse: true });
    expect({ status: answer.status, message: answer.json }).toEqual({ status: 400, message: 'Refused by the service' });
  });
});
