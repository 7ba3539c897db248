import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { createHash } from 'node:crypto';
import { OWNER, startDistributedStack } from './stack.js';

describe('distributed mode: sessions in Redis', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    const servers = testServers();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: servers.natsUrl, REDIS_URL: redis.url, SESSION_TTL_SECONDS: '1' });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.drop();
    await redis?.drop();
  });

  it('ends the session when its time to live has passed, whatever the cookie says', async () => {
    const client = new ApiClient(stack.url);
    const login = await client.login(OWNER.username, OWNER.password);
    expect(login.headers.get('set-cookie')).toMatch(/Max-Age=1/);
    expect((await client.request('GET', '/api/user')).status).toBe(200);
    // The store keys a session by the SHA-256 of its id, never the id itself.
    const id = client.sessionCookie!.split('=')[1];
    const key = `vault:session:${createHash('sha256').update(id).digest('base64url')}`;
    expect(await stack.redisKeys(key)).toEqual([key]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await client.request('GET', '/api/user')).status).toBe(401);
    expect(await stack.redisKeys(key)).toEqual([]);
  });
});
