import { describe, expect, it } from '@jest/globals';
import type { ServerNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { testServers } from '@vault/testing';
import { createClientProxy, createServer } from '../src/transport-options.js';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const listen = (server: ServerNats) => new Promise<void>((resolve, reject) => server.listen((error?: unknown) => (error ? reject(error) : resolve())));

/**
 * A replica told to stop (a rolling upgrade, a deleted pod) while it works on
 * a request: the gateway is waiting for that answer, and the other replicas of
 * its queue group cannot give it. It must answer before it closes.
 */
describe('a service stopping while it answers a request', () => {
  it('answers what it has taken, then closes; what comes after goes to the other replicas', async () => {
    const queue = `graceful-${process.pid}-${Date.now()}`;
    const pattern = `${queue}.slow`;
    // The integration run's NATS: the machine's, or a container's (npm run test:integration:containers).
    const options = { kind: 'nats' as const, url: testServers().natsUrl, timeoutMs: 1500 };
    const stopping = createServer(options, queue) as ServerNats;
    const staying = createServer(options, queue) as ServerNats;
    const answeredBy: string[] = [];
    const handler = (name: string) => async (data: { n: number }) => {
      await sleep(400);
      answeredBy.push(name);
      return { n: data.n, by: name };
    };
    stopping.addHandler(pattern, handler('stopping'));
    staying.addHandler(pattern, handler('staying'));
    await listen(stopping);
    const client = createClientProxy(options, `${queue}-client`);
    await client.connect();
    try {
      // Only the stopping replica is there: it takes this request.
      const taken = firstValueFrom(client.send(pattern, { n: 1 }).pipe(timeout(3000)));
      await sleep(150);
      await listen(staying);
      const closed = stopping.close();
      await expect(taken).resolves.toEqual({ n: 1, by: 'stopping' });
      // Sent while it is closing: the replica that stays answers.
      await expect(firstValueFrom(client.send(pattern, { n: 2 }).pipe(timeout(3000)))).resolves.toEqual({ n: 2, by: 'staying' });
      await closed;
    } finally {
      await client.close();
      await staying.close();
    }
  });

  // A busy node (a rolling upgrade starting six pods beside six stopping) slows a handler past
  // the 2 s a fixed grace period gave it, while the gateway still waits (CI: 2 of 5,498, then 37
  // of 8,975 requests answered 503 during a rolling upgrade).
  it('answers a request that takes longer than 2 s while the gateway still waits for it', async () => {
    const queue = `graceful-slow-${process.pid}-${Date.now()}`;
    const pattern = `${queue}.slow`;
    const options = { kind: 'nats' as const, url: testServers().natsUrl, timeoutMs: 5000 };
    const stopping = createServer(options, queue) as ServerNats;
    stopping.addHandler(pattern, async (data: { n: number }) => {
      await sleep(3000);
      return { n: data.n };
    });
    await listen(stopping);
    const client = createClientProxy(options, `${queue}-client`);
    await client.connect();
    try {
      const taken = firstValueFrom(client.send(pattern, { n: 7 }).pipe(timeout(options.timeoutMs)));
      await sleep(200);
      const closing = Date.now();
      await stopping.close();
      await expect(taken).resolves.toEqual({ n: 7 });
      // It closed once that answer was out: not before, and not a whole wait after it.
      expect(Date.now() - closing).toBeGreaterThan(2500);
      expect(Date.now() - closing).toBeLessThan(4000);
    } finally {
      await client.close();
    }
  }, 15_000);

  it('closes at once when it owes no answer, whatever the gateway would wait', async () => {
    const queue = `graceful-idle-${process.pid}-${Date.now()}`;
    const pattern = `${queue}.quick`;
    const options = { kind: 'nats' as const, url: testServers().natsUrl, timeoutMs: 5000 };
    const idle = createServer(options, queue) as ServerNats;
    idle.addHandler(pattern, async (data: { n: number }) => data);
    await listen(idle);
    const client = createClientProxy(options, `${queue}-client`);
    await client.connect();
    try {
      await expect(firstValueFrom(client.send(pattern, { n: 1 }).pipe(timeout(3000)))).resolves.toEqual({ n: 1 });
      const closing = Date.now();
      await idle.close();
      expect(Date.now() - closing).toBeLessThan(1000);
    } finally {
      await client.close();
    }
  });
});
