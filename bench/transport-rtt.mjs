// Gateway-to-service round trip: the same contract and handler over the
// in-process transport and over NATS, measured from the caller.
import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defineRpc } from '@vault/contracts';
import { Handles, InProcessBroker, RpcClient, TransportModule, microserviceOptions } from '@vault/transport';
import { z } from 'zod';

const Echo = defineRpc({ pattern: 'bench.echo', request: z.object({ n: z.number() }), response: z.object({ n: z.number() }) });

class EchoHandlers {
  echo(request) {
    return { n: request.n };
  }
}
// What TypeScript's decorator emit does: apply, then define the returned descriptor.
const descriptor = Object.getOwnPropertyDescriptor(EchoHandlers.prototype, 'echo');
Object.defineProperty(
  EchoHandlers.prototype,
  'echo',
  /** @type {PropertyDescriptor} */ (Handles(Echo)(EchoHandlers.prototype, 'echo', descriptor) ?? descriptor),
);
Controller()(EchoHandlers);

async function measure(transport, iterations) {
  class HandlerModule {}
  Module({ controllers: [EchoHandlers] })(HandlerModule);
  class CallerModule {}
  Module({ imports: [TransportModule.forClient(transport, 'bench')] })(CallerModule);
  const service = await NestFactory.createMicroservice(HandlerModule, { ...microserviceOptions(transport, 'bench-svc'), logger: false });
  await service.listen();
  const caller = await NestFactory.createApplicationContext(CallerModule, { logger: false });
  const rpc = caller.get(RpcClient);
  for (let i = 0; i < 200; i++) await rpc.send(Echo, { n: i });
  const times = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await rpc.send(Echo, { n: i });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await caller.close();
  await service.close();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)] };
}

const inProcess = await measure({ kind: 'in-process', broker: new InProcessBroker(), timeoutMs: 5000 }, 5000);
const nats = await measure({ kind: 'nats', url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', timeoutMs: 5000 }, 2000);
process.stdout.write(`${JSON.stringify({ inProcess, nats })}\n`);
process.exit(0);
