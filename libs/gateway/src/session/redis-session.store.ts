import type { Redis } from 'ioredis';
import { newSessionId, sessionKey } from './session-id.js';
import type { SessionData, SessionStore } from './session.store.js';

const PREFIX = 'vault:session:';

/**
 * The distributed mode's store: every gateway replica sees the same sessions,
 * and Redis drops each one when its time to live runs out.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs: number,
  ) {}

  async create(data: SessionData): Promise<string> {
    const id = newSessionId();
    const remaining = data.signedInAt + this.ttlMs - Date.now();
    await this.redis.set(PREFIX + sessionKey(id), JSON.stringify(data), 'PX', Math.max(1, remaining));
    return id;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const raw = await this.redis.get(PREFIX + sessionKey(id));
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(PREFIX + sessionKey(id));
  }

  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    // The connection is shared and closed by the module that opened it.
  }
}
