import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ClientProxy } from '@nestjs/microservices';
import { ListTargets } from '@vault/contracts';
import { createTestDatabase, slowTcpProxy, type TestDatabase } from '@vault/testing';
import { createClientProxy } from '@vault/transport';
import { firstValueFrom, timeout } from 'rxjs';
import { startApp, type AppProcess } from './app-process.js';
import { PrivateNats, freePort } from './private-nats.js';

// Issue 31: a new replica takes requests from its queue group the moment it
// joins. On a busy node (a rolling upgrade: six pods starting at once), a new
// connection to the database can take longer than the pool's 2 s, and a
// replica whose first requests each had to open one failed them together.
const SLOW_CONNECTION_MS = 3000;
/** As many requests at once as the replica keeps connections ready for. */
const AT_ONCE = 3;

/** A TCP proxy to the database whose new connections, once it is slowed, reach the server only after SLOW_CONNECTION_MS. */
async function databaseProxy(target: URL) {
  let slow = false;
  const proxy = await slowTcpProxy(target, 5432, { connectDelayMs: () => (slow ? SLOW_CONNECTION_MS : 0) });
  return { ...proxy, slowDown: (on = true) => (slow = on) };
}

type Reply = { ok: boolean; error?: { status: number; message: string } };
const outcome = (reply: Reply) => (reply.ok ? 'ok' : `${reply.error?.status} ${reply.error?.message}`);

describe('a service and its database (distributed mode)', () => {
  let db: TestDatabase;
  let nats: PrivateNats;
  let proxy: Awaited<ReturnType<typeof databaseProxy>>;
  let planner: AppProcess | undefined;
  let client: ClientProxy | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await databaseProxy(new URL(db.url));
    // Its own broker: the replica's queue group (planner-svc) must hold this one replica only.
    nats = new PrivateNats(await freePort());
    await nats.start();
    planner = await startApp('apps/planner-svc/dist/main.js', { VAULT_MODE: 'distributed', LOG_LEVEL: 'warn', NATS_URL: nats.url, DATABASE_URL: proxy.url });
    client = createClientProxy({ kind: 'nats', url: nats.url, timeoutMs: 10_000 }, 'warm-database-spec');
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await planner?.stop();
    await proxy?.close();
    await nats?.remove();
    await db?.drop();
  });

  it('answers its first requests at once without a new connection to the database, however slow a new one has become', async () => {
    // From now on a new connection to the database takes longer than the pool waits for one.
    proxy.slowDown();
    const replies = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => listTargets(`warm-${i}`)));
    expect(replies.map(outcome)).toEqual(Array(AT_ONCE).fill('ok'));
  }, 60_000);

  // The same replica (a fresh one would only add a start): its database goes away, then comes back.
  it('answers 503 at once while its database is unreachable (not 500: a dependency, not the request, failed), and answers again by itself once it is back', async () => {
    proxy.slowDown(false);
    proxy.cut(true);
    const started = Date.now();
    const during = await Promise.all([listTargets('outage-1'), listTargets('outage-2')]);
    const tookMs = Date.now() - started;
    expect(during.map(outcome)).toEqual(Array(2).fill('503 The planner service is unavailable. Try again shortly.'));
    expect(tookMs).toBeLessThan(3000);

    proxy.cut(false);
    let after: Reply | undefined;
    for (let attempt = 0; attempt < 20 && !after?.ok; attempt++) {
      after = await listTargets(`back-${attempt}`);
      if (!after.ok) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(after && outcome(after)).toBe('ok');
  }, 60_000);

  function listTargets(requestId: string): Promise<Reply> {
    return firstValueFrom(client!.send<Reply>(ListTargets.pattern, { data: {}, meta: { requestId } }).pipe(timeout(10_000)));
  }
});
