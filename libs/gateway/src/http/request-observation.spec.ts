import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createObservability, requestContext, type Observability } from '@vault/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { RequestObservation } from './request-observation.js';

describe('RequestObservation: each request in the metrics by its route pattern, and as a trace', () => {
  let fastify: FastifyInstance;
  let observability: Observability;
  let base: string;
  /** A request over the loopback, as a client sends it (fastify.inject needs a CommonJS cookie parser jest cannot load). */
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json().catch(() => undefined)) as { traceId?: string } | undefined };
  };
  const seen: Array<string | undefined> = [];

  beforeAll(async () => {
    observability = await createObservability({ service: 'gateway', metrics: true });
    const observation = new RequestObservation(observability);
    fastify = Fastify();
    observation.register(fastify);
    fastify.addHook('preHandler', (request, _reply, done) => requestContext.run({ trace: observation.traceOf(request) }, done));
    fastify.get('/api/targets/:id', async () => ({ traceId: requestContext.getStore()?.trace?.traceId }));
    fastify.post('/api/targets', async (_request, reply) => reply.code(400).send({ message: 'title: required' }));
    fastify.get('/api/boom', async () => {
      throw new Error('boom');
    });
    base = await fastify.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(() => fastify.close());

  it('labels requests by route pattern, method and status, never by the URL with its ids, nor by what the client sent', async () => {
    for (const id of ['8f14e45f-ceea-467f-a0e4-a1b2c3d4e5f6', '1679091c-5a88-4faf-9b1c-0a1b2c3d4e5f']) {
      const answer = await send('GET', `/api/targets/${id}?secret=Sunflower-Query`, { 'x-forwarded-for': '203.0.113.77', cookie: 'vault_session=Plum-Cookie' });
      seen.push(answer.json?.traceId);
    }
    await send('POST', '/api/targets', {}, { title: 'Velvet-Title' });
    await send('GET', '/api/boom');
    await send('GET', '/no/such/Cobalt-Path');
    const text = await observability.metrics!.text();
    const counts = text.split('\n').filter((line) => line.startsWith('vault_http_request_duration_seconds_count'));
    expect(counts.sort()).toEqual(
      [
        'vault_http_request_duration_seconds_count{service="gateway",route="/api/targets/:id",method="GET",status="200"} 2',
        'vault_http_request_duration_seconds_count{service="gateway",route="/api/targets",method="POST",status="400"} 1',
        'vault_http_request_duration_seconds_count{service="gateway",route="/api/boom",method="GET",status="500"} 1',
        'vault_http_request_duration_seconds_count{service="gateway",route="unmatched",method="GET",status="404"} 1',
      ].sort(),
    );
    for (const secret of ['8f14e45f', 'Sunflower-Query', '203.0.113.77', 'Plum-Cookie', 'Velvet-Title', 'Cobalt-Path']) expect(text).not.toContain(secret);
  });

  it('starts a new trace for each request, whatever traceparent the client sends', async () => {
    expect(seen[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(seen[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(seen[0]).not.toBe(seen[1]);
    const chosen = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await send('GET', '/api/targets/1', { traceparent: `00-${chosen}-00f067aa0ba902b7-01` });
    expect(answer.json?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.json?.traceId).not.toBe(chosen);
  });
});
