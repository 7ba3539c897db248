import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEvent } from '@vault/contracts';
import { z } from 'zod';
import { JetStreamEventBus } from '../../transport/src/events/jetstream.event-bus.js';
import { PrivateNats, freePort } from './private-nats.js';

const NOTED = defineEvent({ name: 'catch-up.noted', payload: z.object({ n: z.number() }) });
const KEPT = 5;
const STALL_MS = 1600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A service starting while events wait for it handles them before it serves.
 * On a loaded machine the broker's heartbeats come late: a catching-up pull
 * that gave up after two missed half-second heartbeats failed the service's
 * start (CI, through testcontainers: "heartbeats missed" in every test of a
 * distributed stack's spec). A broker stalled for 1.6 s stands in for it.
 */
describe('a service catching up on the events kept for it', () => {
  let nats: PrivateNats;
  const buses: JetStreamEventBus[] = [];

  beforeAll(async () => {
    nats = new PrivateNats(await freePort());
    await nats.start();
  });

  afterAll(async () => {
    nats.resume();
    for (const bus of buses) await bus.close();
    await nats.remove();
  });

  it('starts, every kept event handled, when the broker stalls while it catches up', async () => {
    const publisher = new JetStreamEventBus(nats.url, 'catch-up-publisher');
    buses.push(publisher);
    for (let n = 0; n < KEPT; n++) publisher.publish(NOTED, { n });
    await publisher.flush();

    const handled: number[] = [];
    const subscriber = new JetStreamEventBus(nats.url, 'catch-up-service');
    buses.push(subscriber);
    const started = subscriber.subscribe([
      {
        contract: NOTED,
        name: 'CatchUp.noted',
        handler: async (payload) => {
          handled.push((payload as { n: number }).n);
          if (handled.length > 1) return;
          nats.pause();
          await sleep(STALL_MS);
          nats.resume();
        },
      },
    ]);

    await expect(started).resolves.toBeUndefined();
    await expect(subscriber.checkCaughtUp()).resolves.toBeUndefined();
    expect([...new Set(handled)].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
