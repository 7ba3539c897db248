import type { Redis } from 'ioredis';

/** At most this many sign-in attempts per client address in the window, whatever their outcome. */
export interface LoginRateLimit {
  attempts: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT: LoginRateLimit = { attempts: 20, windowSeconds: 900 };

/** Counts hits per key in a fixed window; returns the count including this hit. */
export interface AttemptCounter {
  hit(key: string, windowSeconds: number): Promise<number>;
  /** Forgets every counter (self-destruct: they are keyed by client address). */
  clear(): Promise<void>;
}

export const ATTEMPT_COUNTER = Symbol('ATTEMPT_COUNTER');

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowSeconds: number): Promise<number> {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.prune(now);
      this.windows.set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
      return 1;
    }
    window.count++;
    return window.count;
  }

  async clear(): Promise<void> {
    this.windows.clear();
  }

  private prune(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const REDIS_PREFIX = 'vault:login-attempts:';

/** Shared by every gateway replica; the window starts at the first attempt. */
export class RedisAttemptCounter implements AttemptCounter {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowSeconds: number): Promise<number> {
    const redisKey = `${REDIS_PREFIX}${key}`;
    const [[, count]] = (await this.redis.multi().incr(redisKey).expire(redisKey, windowSeconds, 'NX').exec()) as [[unknown, number]];
    return count;
  }

  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
