import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { testServers } from '@vault/testing';
import { ReplyInbox } from '../src/reply-inbox.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The gateway's requests to the services share one reply inbox per connection (the integration run's NATS). */
describe('ReplyInbox on a real NATS connection', () => {
  let service: NatsConnection;
  let gateway: NatsConnection;
  const subject = (name: string) => `reply-inbox-${process.pid}.${name}`;

  beforeAll(async () => {
    service = await connect({ servers: testServers().natsUrl });
    gateway = await connect({ servers: testServers().natsUrl });
    // Answers after the delay the request names: later requests can be answered first.
    service.subscribe(subject('echo'), {
      callback: (_error, msg) => void sleep(Number(msg.string())).then(() => msg.respond(`answer to ${msg.string()}`)),
    });
    service.subscribe(subject('silent'), { callback: () => undefined });
    service.subscribe(subject('late'), { callback: (_error, msg) => void sleep(300).then(() => msg.respond('too late')) });
    await service.flush();
  });

  afterAll(async () => {
    await gateway.close();
    await service.close();
  });

  it('gives each request its own reply, whatever order the replies come in', async () => {
    const inbox = new ReplyInbox(gateway);
    const delays = [120, 10, 60, 0, 90];
    const replies = await Promise.all(delays.map((ms) => inbox.request(subject('echo'), String(ms), undefined, 2000)));
    expect(replies.map((r) => r.string())).toEqual(delays.map((ms) => `answer to ${ms}`));
  });

  it('refuses at once when no service listens, not at the deadline', async () => {
    const inbox = new ReplyInbox(gateway);
    const began = Date.now();
    await expect(inbox.request(subject('nobody'), '', undefined, 5000)).rejects.toThrow(`no service answers ${subject('nobody')}`);
    expect(Date.now() - began).toBeLessThan(1000);
  });

  it('fails a request at its deadline, and a reply that comes later is no one’s', async () => {
    const inbox = new ReplyInbox(gateway);
    await expect(inbox.request(subject('silent'), '', undefined, 200)).rejects.toThrow(`no reply to ${subject('silent')} within 200 ms`);
    await expect(inbox.request(subject('late'), '', undefined, 100)).rejects.toThrow('within 100 ms');
    // The late reply arrives meanwhile; the next request still gets its own.
    await sleep(400);
    await expect(inbox.request(subject('echo'), '0', undefined, 2000).then((r) => r.string())).resolves.toBe('answer to 0');
  });

  it('fails every request in flight when told the connection dropped', async () => {
    const inbox = new ReplyInbox(gateway);
    const inFlight = [inbox.request(subject('silent'), '', undefined, 5000), inbox.request(subject('echo'), '500', undefined, 5000)];
    await sleep(50);
    inbox.failAll(new Error('Connection closed'));
    for (const request of inFlight) await expect(request).rejects.toThrow('Connection closed');
    // Its reply, when it comes, finds no one waiting.
    await sleep(600);
  });
});
