import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defineRpc } from '@vault/contracts';
import {
  OBSERVABILITY,
  ObservabilityModule,
  createObservability,
  currentTrace,
  idOnlyTracer,
  requestContext,
  type Observability,
  type SpanKind,
  type TraceContext,
  type Tracer,
} from '@vault/platform';
import { z } from 'zod';
import { Handles } from './handles.decorator.js';
import { InProcessBroker, InProcessServer } from './in-process.transport.js';
import { RpcClient } from './rpc-client.js';
import { RpcFailure } from './rpc-failure.js';
import { TransportModule } from './transport.module.js';

const Lookup = defineRpc({ pattern: 'shelf.lookup', request: z.object({ name: z.string().min(1) }), response: z.object({ traceId: z.string() }) });
const Broken = defineRpc({ pattern: 'shelf.broken', request: z.object({}), response: z.object({}) });

@Controller()
class ShelfHandlers {
  @Handles(Lookup)
  lookup(request: { name: string }) {
    if (request.name === 'missing') throw RpcFailure.notFound('No such shelf');
    return { traceId: currentTrace()?.traceId ?? 'none' };
  }

  @Handles(Broken)
  broken(): never {
    throw new Error('disk on fire');
  }
}

/** A tracer that keeps what it was asked for (ids from the id-only tracer). */
function recordingTracer() {
  const spans: Array<{ name: string; kind: SpanKind; parent?: TraceContext; context: TraceContext; ended?: { failed?: boolean } }> = [];
  const tracer: Tracer = {
    start(name, kind, parent) {
      const handle = idOnlyTracer.start(name, kind, parent);
      const span: (typeof spans)[number] = { name, kind, parent, context: handle.context };
      spans.push(span);
      return { context: handle.context, end: (result) => (span.ended = result ?? {}) };
    },
    close: async () => undefined,
  };
  return { tracer, spans };
}

/** One family's samples as `labels -> value`, read from the exposition text. */
async function samples(observability: Observability, name: string) {
  const text = await observability.metrics!.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => line.replace(/service="[^"]*",?/, ''));
}

describe('RPC metrics and traces, on both sides of a call', () => {
  const broker = new InProcessBroker();
  const recorded = recordingTracer();
  let observability: Observability;
  let services: INestMicroservice;
  let gateway: INestApplicationContext;
  let rpc: RpcClient;

  beforeAll(async () => {
    const metered = await createObservability({ service: 'test', metrics: true });
    observability = { ...metered, tracer: recorded.tracer };
    @Module({ controllers: [ShelfHandlers] })
    class ShelfModule {}
    @Module({ imports: [ObservabilityModule.forRoot(observability), TransportModule.forClient({ kind: 'in-process', broker, timeoutMs: 1000 }, 'test')] })
    class GatewayModule {}
    services = await NestFactory.createMicroservice(ShelfModule, { strategy: new InProcessServer(broker, observability), logger: false });
    await services.listen();
    gateway = await NestFactory.createApplicationContext(GatewayModule, { logger: false });
    rpc = gateway.get(RpcClient);
    expect(gateway.get(OBSERVABILITY)).toBe(observability);
  });

  afterAll(async () => {
    await gateway.close();
    await services.close();
  });

  it("counts each call by pattern and outcome on the client's side and the server's", async () => {
    await rpc.send(Lookup, { name: 'a' });
    await rpc.send(Lookup, { name: 'b' });
    await expect(rpc.send(Lookup, { name: 'missing' })).rejects.toMatchObject({ status: 404 });
    await expect(rpc.forward(Lookup, { name: '' })).rejects.toMatchObject({ status: 400 });
    await expect(rpc.send(Broken, {})).rejects.toMatchObject({ status: 500 });
    for (const family of ['vault_rpc_client_duration_seconds_count', 'vault_rpc_server_duration_seconds_count'])
      expect((await samples(observability, family)).sort()).toEqual(
        [
          `${family}{pattern="shelf.broken",outcome="failed"} 1`,
          `${family}{pattern="shelf.lookup",outcome="ok"} 2`,
          `${family}{pattern="shelf.lookup",outcome="refused"} 2`,
        ].sort(),
      );
  });

  it("runs the handler in a server span under the caller's client span, in the caller's trace", async () => {
    const root = recorded.tracer.start('HTTP GET', 'server', undefined);
    recorded.spans.length = 0;
    const { traceId } = await requestContext.run({ trace: root.context }, () => rpc.send(Lookup, { name: 'd' }));
    const [client, server] = recorded.spans;
    expect(recorded.spans).toHaveLength(2);
    expect(traceId).toBe(root.context.traceId);
    expect(client).toMatchObject({ name: 'shelf.lookup', kind: 'client', parent: root.context, ended: { failed: false } });
    expect(server).toMatchObject({ name: 'shelf.lookup', kind: 'server', ended: { failed: false } });
    expect(server.parent).toEqual(client.context);
  });
});
