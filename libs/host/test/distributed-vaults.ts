import { createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { startDistributedStack } from './stack.js';

type Vault = { db: TestDatabase; redis: TestRedis; stack: Awaited<ReturnType<typeof startDistributedStack>> };

/**
 * Distributed vaults one after another on the worker's NATS, each with its own
 * database, Redis and bucket: `next` stops the running one first (one vault
 * on the bus at a time: the new one serves the same queue groups), `closeAll`
 * stops the last and drops every database and Redis.
 */
export function distributedVaults() {
  const opened: Vault[] = [];
  let current: Vault | undefined;
  return {
    get current(): Vault {
      if (!current) throw new Error('no vault started');
      return current;
    },
    async next(): Promise<Vault> {
      await current?.stack.close();
      const db = await createTestDatabase();
      const redis = await createTestRedis();
      const stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
      current = { db, redis, stack };
      opened.push(current);
      return current;
    },
    async closeAll(): Promise<void> {
      await current?.stack.close();
      for (const { db, redis } of opened) {
        await db.drop();
        await redis.drop();
      }
    },
  };
}
