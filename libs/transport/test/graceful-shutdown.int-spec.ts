import { describe, expect, it } from '@jest/globals';
import type { ServerNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { testServers } from '@vault/testing';
import { createClientProxy, createServer } from '../src/transport-options.js';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    const listen = (server: ServerNats) => new Promise<void>((resolve, reject) => server.listen((error?: unknown) => (error ? reject(error) : resolve())));
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
});
