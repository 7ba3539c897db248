import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Logger, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { defineRpc } from '@vault/contracts';
import { currentRequestId, requestContext } from '@vault/platform';
import { z } from 'zod';
import { Handles } from './handles.decorator.js';
import { InProcessBroker, InProcessServer } from './in-process.transport.js';
import { RpcClient } from './rpc-client.js';
import { RpcFailure } from './rpc-failure.js';
import { TransportModule } from './transport.module.js';

const Add = defineRpc({
  pattern: 'math.add',
  request: z.object({ a: z.number(), b: z.number(), at: z.string().optional() }),
  response: z.object({ sum: z.number(), at: z.string().optional() }),
});
const Slow = defineRpc({ pattern: 'math.slow', request: z.object({}), response: z.object({}), timeoutMs: 50 });
const WhoAsks = defineRpc({ pattern: 'math.who', request: z.object({}), response: z.object({ requestId: z.string().optional() }) });
const Unserved = defineRpc({ pattern: 'nobody.home', request: z.object({}), response: z.object({}) });
const Conflict = defineRpc({ pattern: 'math.conflict', request: z.object({}), response: z.object({}) });
const Recurse = defineRpc({ pattern: 'math.recurse', request: z.object({}), response: z.object({ depth: z.number() }) });
/** A schema that throws while parsing, as a stack overflow on a hostile shape would. */
const Overflowing = defineRpc({
  pattern: 'math.overflow',
  request: z.object({}).transform(() => {
    throw new RangeError('Maximum call stack size exceeded');
  }),
  response: z.object({}),
});
/** A handler outside @Handles, so its exception reaches Nest's own RPC exception filter. */
const Undecorated = defineRpc({ pattern: 'math.raw', request: z.object({}), response: z.object({}) });

/** A reply the service keeps and answers every time, with a field its contract does not name. */
const Kept = defineRpc({ pattern: 'math.kept', request: z.object({}), response: z.object({ items: z.array(z.object({ n: z.number() })) }) });
const KEPT_ANSWER = { items: [{ n: 1 }], internal: 'not in the contract' };
const Untyped = defineRpc({ pattern: 'math.untyped', request: z.object({}), response: z.object({ at: z.string() }) });

const recurse = (depth: number): number => recurse(depth + 1) + 1;

@Controller()
class MathHandlers {
  @Handles(Add)
  add(request: { a: number; b: number; at?: string }) {
    return { sum: request.a + request.b, at: request.at };
  }

  @Handles(Kept)
  kept() {
    return KEPT_ANSWER;
  }

  @Handles(Untyped)
  untyped() {
    // What the contract's type forbids, as a cast could still send it.
    return { at: new Date(0) as unknown as string };
  }

  @Handles(WhoAsks)
  who() {
    return { requestId: currentRequestId() };
  }

  @Handles(Conflict)
  conflict(): never {
    throw new RpcFailure(409, 'Already there');
  }

  @Handles(Recurse)
  recurse() {
    return { depth: recurse(0) };
  }

  @Handles(Overflowing)
  overflow() {
    return {};
  }

  @MessagePattern(Undecorated.pattern)
  raw() {
    throw new TypeError('undefined is not a function');
  }

  @Handles(Slow)
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {};
  }
}

describe('in-process transport', () => {
  const broker = new InProcessBroker();
  let services: INestMicroservice;
  let gateway: INestApplicationContext;
  let rpc: RpcClient;

  beforeAll(async () => {
    @Module({ controllers: [MathHandlers] })
    class MathModule {}
    @Module({ imports: [TransportModule.forClient({ kind: 'in-process', broker, timeoutMs: 1000 }, 'test')] })
    class GatewayModule {}
    services = await NestFactory.createMicroservice(MathModule, { strategy: new InProcessServer(broker), logger: false });
    await services.listen();
    gateway = await NestFactory.createApplicationContext(GatewayModule, { logger: false });
    rpc = gateway.get(RpcClient);
  });

  afterAll(async () => {
    await gateway.close();
    await services.close();
  });

  it('copies a request through JSON, as NATS would: a Date arrives as its text', async () => {
    await expect(rpc.send(Add, { a: 2, b: 3, at: new Date(0) as unknown as string })).resolves.toEqual({ sum: 5, at: '1970-01-01T00:00:00.000Z' });
  });

  it("finds a handler under its pattern's own text, never parsing the pattern as JSON (each parse threw, with its stack)", async () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      await expect(rpc.send(Add, { a: 1, b: 1 })).resolves.toEqual({ sum: 2 });
      expect(parse.mock.calls.filter(([text]) => text === Add.pattern)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it('hands a reply to the caller as its contract parses it: a copy of its own, only the fields the contract names', async () => {
    const reply = await rpc.send(Kept, {});
    expect(reply).toEqual({ items: [{ n: 1 }] });
    reply.items[0].n = 99;
    reply.items.push({ n: 2 });
    expect(KEPT_ANSWER).toEqual({ items: [{ n: 1 }], internal: 'not in the contract' });
    await expect(rpc.send(Kept, {})).resolves.toEqual({ items: [{ n: 1 }] });
  });

  it('refuses a reply that does not fit its contract as an invalid reply (502)', async () => {
    await expect(rpc.send(Untyped, {})).rejects.toMatchObject({ status: 502, message: 'The math service sent an invalid reply.' });
  });

  it('turns a refused request into an RpcFailure with its status', async () => {
    const failure = await rpc.forward(Add, { a: 'two', b: 3 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcFailure);
    expect((failure as RpcFailure).status).toBe(400);
  });

  it('keeps the status and message of a refusal the handler throws', async () => {
    await expect(rpc.send(Conflict, {})).rejects.toMatchObject({ status: 409, message: 'Already there' });
  });

  it('answers 500 with a plain message, not 503, when the handler fails on its own, and logs the pattern on both sides', async () => {
    const logged = captureErrorLogs();
    try {
      const failed = { status: 500, message: 'The math service failed on this request.' };
      await expect(rpc.send(Recurse, {})).rejects.toMatchObject(failed);
      await expect(rpc.send(Overflowing, {})).rejects.toMatchObject(failed);
      // An exception Nest's filter sent back, not @Handles: the service was still reached.
      await expect(rpc.send(Undecorated, {})).rejects.toMatchObject(failed);
    } finally {
      logged.restore();
    }
    const serviceSide = logged.lines.filter((line) => line.includes('math.recurse failed: RangeError: Maximum call stack size exceeded'));
    const gatewaySide = logged.lines.filter((line) => line.startsWith('math.recurse: 500 The math service failed on this request.'));
    expect([serviceSide.length, gatewaySide.length]).toEqual([1, 1]);
    expect(logged.lines.some((line) => line.startsWith('math.raw: the service failed on this request'))).toBe(true);
  });

  it('answers 503 when no service handles the pattern or it misses its deadline', async () => {
    await expect(rpc.send(Unserved, {})).rejects.toMatchObject({ status: 503, message: 'The nobody service is unavailable. Try again shortly.' });
    await expect(rpc.send(Slow, {})).rejects.toMatchObject({ status: 503 });
  });

  it('carries the request id of the caller', async () => {
    await requestContext.run({ requestId: 'abc' }, async () => {
      await expect(rpc.send(WhoAsks, {})).resolves.toEqual({ requestId: 'abc' });
    });
  });
});

/** Every error Nest's loggers write meanwhile (the apps above log nothing: logger false). */
function captureErrorLogs() {
  const lines: string[] = [];
  const original = Logger.prototype.error;
  Logger.prototype.error = function (this: Logger, message: unknown) {
    lines.push(String(message));
  };
  return { lines, restore: () => (Logger.prototype.error = original) };
}
