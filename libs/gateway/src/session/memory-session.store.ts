import { newSessionId, sessionKey } from './session-id.js';
import type { RecordStore, SessionData } from './session.store.js';

/**
 * The embedded mode's store of short-lived records (sessions, pending
 * sign-ins): one process, so a map with expiry times is enough. A record
 * lives `ttlMs` from its start (`startOf`).
 */
export class MemoryRecordStore<T> implements RecordStore<T> {
  private readonly sessions = new Map<string, { data: T; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly ttlMs: number,
    private readonly startOf: (data: T) => number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(ttlMs, 60_000));
    this.sweeper.unref();
  }

  async create(data: T): Promise<string> {
    const id = newSessionId();
    this.sessions.set(sessionKey(id), { data, expiresAt: this.startOf(data) + this.ttlMs });
    return id;
  }

  async get(id: string): Promise<T | undefined> {
    const key = sessionKey(id);
    const entry = this.sessions.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return entry.data;
  }

  async update(id: string, data: T): Promise<void> {
    const entry = this.sessions.get(sessionKey(id));
    if (entry) entry.data = data;
  }

  async destroy(id: string): Promise<void> {
    this.sessions.delete(sessionKey(id));
  }

  async clear(): Promise<void> {
    this.sessions.clear();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private sweep() {
    const now = Date.now();
    for (const [key, entry] of this.sessions) if (entry.expiresAt <= now) this.sessions.delete(key);
  }
}

/** The sessions: each ends a fixed time after its sign-in. */
export class MemorySessionStore extends MemoryRecordStore<SessionData> {
  constructor(ttlMs: number) {
    super(ttlMs, (session) => session.signedInAt);
  }
}
