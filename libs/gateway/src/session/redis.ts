import type { Redis } from 'ioredis';

export const REDIS = Symbol('REDIS');

/**
 * The gateway's one Redis connection (sessions, login rate limits). Commands
 * fail at once while Redis is away instead of queueing, so a request gets a
 * prompt 503 rather than hanging. ioredis is loaded here, when the
 * distributed gateway connects, and never by the embedded vault.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: CONNECT_TIMEOUT_MS });
  // Connection errors are answered per request; without a listener ioredis would log each retry.
  redis.on('error', () => undefined);
  await firstConnection(redis);
  return redis;
}

const CONNECT_TIMEOUT_MS = 2000;

/**
 * Resolves once the connection is open, or its first try has failed or timed
 * out: the gateway listens only after that. Without the wait, a sign-in in
 * the moment after the start was refused with 503 while the connection was
 * still opening; with Redis down, the gateway still starts (503 until it
 * returns) instead of waiting for it.
 */
function firstConnection(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/** Deletes every key under `prefix`, a page at a time (self-destruct). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
