import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccessAttempted } from '@vault/contracts';
import { createEventBus, type EventBus } from '@vault/transport';
import { PrivateNats, freePort } from './private-nats.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until `check` resolves; the milliseconds it took, or the last error at the deadline. */
async function until(check: () => Promise<unknown>, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > withinMs) throw error;
      await sleep(100);
    }
  }
}

// A process started before its broker (a compose stack whose NATS container starts after the
// gateway's, a name not in DNS yet): its events must follow once the broker answers, without a restart.
describe('distributed mode: the event bus of a process started before its broker', () => {
  let nats: PrivateNats;
  let publisher: EventBus;
  let consumer: EventBus;

  beforeAll(async () => {
    nats = new PrivateNats(await freePort());
    publisher = await createEventBus({ kind: 'jetstream', url: nats.url, consumerName: 'gateway' });
    consumer = await createEventBus({ kind: 'jetstream', url: nats.url, consumerName: 'audit-svc' });
  });

  afterAll(async () => {
    await publisher?.close();
    await consumer?.close();
    await nats?.remove();
  });

  it('answers not ready at once while no broker is there, then reaches it when it starts, and events flow', async () => {
    const started = Date.now();
    await expect(publisher.checkConnected()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
    // Published before the broker exists: kept until the connection is made.
    publisher.publish(AccessAttempted, { ipAddress: '192.0.2.7', action: 'failed_login', success: false });
    await sleep(3000);

    await nats.start();
    const reachedMs = await until(() => publisher.checkConnected(), 10_000);
    await until(() => consumer.checkConnected(), 10_000);
    const received: string[] = [];
    await consumer.subscribe([
      { contract: AccessAttempted, name: 'test.received', handler: (payload) => void received.push((payload as { ipAddress: string }).ipAddress) },
    ]);
    publisher.publish(AccessAttempted, { ipAddress: '192.0.2.8', action: 'login_success', success: true });
    await publisher.flush();
    await until(async () => expect(received).toEqual(['192.0.2.7', '192.0.2.8']), 10_000);
    // At the client's reconnection pace: a second apart and up to a second of jitter, plus the connection itself.
    expect(reachedMs).toBeLessThan(5000);
  });

  it('closes at once when it never reached a broker', async () => {
    const orphan = await createEventBus({ kind: 'jetstream', url: `nats://127.0.0.1:${await freePort()}`, consumerName: 'planner-svc' });
    await sleep(1500);
    const closing = Date.now();
    await orphan.close();
    expect(Date.now() - closing).toBeLessThan(3000);
  });
});
