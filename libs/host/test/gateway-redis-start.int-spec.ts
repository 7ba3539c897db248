import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, slowTcpProxy, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { OWNER, startDistributedStack } from './stack.js';

/** How long the gateway's connection to Redis takes to open: a busy node, a Redis a network hop away. */
const CONNECT_MS = 500;

/**
 * A gateway that has started serves sign-ins. It used to listen before its
 * Redis connection was open, and a sign-in in that moment was refused at
 * once with 503 (the rate limiter and the session store do not queue
 * commands): CI's first sign-in after a stack's start got 503 while the
 * machine was busy.
 */
describe('a gateway whose Redis connection is slow to open', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let proxy: Awaited<ReturnType<typeof slowTcpProxy>>;
  let stack: Awaited<ReturnType<typeof startDistributedStack>> | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    proxy = await slowTcpProxy(new URL(redis.url), 6379, { connectDelayMs: () => CONNECT_MS });
  });

  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
    await db?.drop();
    await redis?.drop();
  });

  it('signs the owner in as soon as it has started', async () => {
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: proxy.url });
    const login = await new ApiClient(stack.url).login(OWNER.username, OWNER.password);
    expect([login.status, login.status === 200 ? 'signed in' : login.json]).toEqual([200, 'signed in']);
  });
});
