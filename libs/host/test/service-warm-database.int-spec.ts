import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ClientProxy } from '@nestjs/microservices';
import { ListTargets } from '@vault/contracts';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { createClientProxy } from '@vault/transport';
import { firstValueFrom, timeout } from 'rxjs';
import { startApp, type AppProcess } from './app-process.js';
import { PrivateNats, freePort } from './private-nats.js';
import { slowTcpProxy } from './slow-tcp-proxy.js';

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
  const proxy = await slowTcpProxy(target, 5432, () => (slow ? SLOW_CONNECTION_MS : 0));
  return { ...proxy, slowDown: () => (slow = true) };
}

describe('a service joining its queue group', () => {
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
  });

  afterAll(async () => {
    await client?.close();
    await planner?.stop();
    await proxy?.close();
    await nats?.remove();
    await db?.drop();
  });

  it('answers its first requests at once without a new connection to the database, however slow a new one has become', async () => {
    planner = await startApp('apps/planner-svc/dist/main.js', { VAULT_MODE: 'distributed', LOG_LEVEL: 'warn', NATS_URL: nats.url, DATABASE_URL: proxy.url });
    // From now on a new connection to the database takes longer than the pool waits for one.
    proxy.slowDown();
    client = createClientProxy({ kind: 'nats', url: nats.url, timeoutMs: 10_000 }, 'warm-database-spec');
    await client.connect();
    const calls = Array.from({ length: AT_ONCE }, (_, i) =>
      firstValueFrom(
        client!
          .send<{ ok: boolean; error?: { status: number; message: string } }>(ListTargets.pattern, { data: {}, meta: { requestId: `warm-${i}` } })
          .pipe(timeout(10_000)),
      ),
    );
    const replies = await Promise.all(calls);
    expect(replies.map((reply) => (reply.ok ? 'ok' : `${reply.error?.status} ${reply.error?.message}`))).toEqual(Array(AT_ONCE).fill('ok'));
  }, 60_000);
});
