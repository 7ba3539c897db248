import type { Redis } from 'ioredis';
import { deleteKeysWithPrefix } from './redis.js';
import { newSessionId, sessionKey } from './session-id.js';
import type { RecordStore, SessionData } from './session.store.js';

/**
 * The distributed mode's store of short-lived records (sessions, pending
 * sign-ins), each kind under its own key prefix: every gateway replica sees
 * the same records, and Redis drops each one `ttlMs` after its start.
 */
export class RedisRecordStore<T> implements RecordStore<T> {
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs: number,
    private readonly prefix: string,
    private readonly startOf: (data: T) => number,
  ) {}

  async create(data: T): Promise<string> {
    const id = newSessionId();
    const remaining = this.startOf(data) + this.ttlMs - Date.now();
    await this.redis.set(this.prefix + sessionKey(id), JSON.stringify(data), 'PX', Math.max(1, remaining));
    return id;
  }

  async get(id: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.prefix + sessionKey(id));
    return raw ? (JSON.parse(raw) as T) : undefined;
  }

  async update(id: string, data: T): Promise<void> {
    // XX: a record that expired meanwhile is not brought back; KEEPTTL: nor made to live longer.
    await this.redis.set(this.prefix + sessionKey(id), JSON.stringify(data), 'KEEPTTL', 'XX');
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.prefix + sessionKey(id));
  }

  async clear(): Promise<void> {
    await deleteKeysWithPrefix(this.redis, this.prefix);
  }

  async close(): Promise<void> {
    // The connection is shared and closed by the module that opened it.
  }
}

/** The sessions, under `vault:session:`: each ends a fixed time after its sign-in. */
export class RedisSessionStore extends RedisRecordStore<SessionData> {
  constructor(redis: Redis, ttlMs: number) {
    super(redis, ttlMs, 'vault:session:', (session) => session.signedInAt);
  }
}
