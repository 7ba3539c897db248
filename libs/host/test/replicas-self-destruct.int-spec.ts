import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import pg from 'pg';
import { startGateway } from '../src/index.js';
import { OWNER, startDistributedStack, urlOf } from './stack.js';

/**
 * Two gateway replicas over one set of services. The replica that did not
 * take the self-destruct still holds a cached "not destroyed" for up to a
 * second; a request it refuses in that second must not be written to the
 * access log of the vault that was just erased.
 */
describe('distributed mode: self-destruct seen by another gateway replica', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;
  let second: INestApplication;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
    second = await startGateway(stack.config);
  });

  afterAll(async () => {
    await second?.close();
    await stack?.close();
    await db?.drop();
    await redis?.drop();
  });

  it('refuses the ended session with 410 at once and records nothing after the erase', async () => {
    const owner = new ApiClient(stack.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    const throughSecond = new ApiClient(urlOf(second), owner.address);
    throughSecond.sessionCookie = owner.sessionCookie;
    // The second replica has just asked for the vault's state: "not destroyed" is cached there now.
    expect((await throughSecond.request('GET', '/api/targets')).status).toBe(200);

    const destroyed = await owner.request('POST', '/api/settings/self-destruct');
    expect(destroyed.json).toEqual({ destroyed: true });
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await throughSecond.request('GET', '/api/targets')).status);
    expect(answers).toEqual([410, 410, 410, 410, 410]);

    // Access events travel through JetStream: give any stray one time to land.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ action: string }>('select action from audit.access_log');
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
