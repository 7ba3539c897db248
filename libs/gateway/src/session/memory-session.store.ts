import { newSessionId, sessionKey } from './session-id.js';
import type { SessionData, SessionStore } from './session.store.js';

/** The embedded mode's store: one process, so a map with expiry times is enough. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { data: SessionData; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ttlMs: number) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(ttlMs, 60_000));
    this.sweeper.unref();
  }

  async create(data: SessionData): Promise<string> {
    const id = newSessionId();
    this.sessions.set(sessionKey(id), { data, expiresAt: data.signedInAt + this.ttlMs });
    return id;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const key = sessionKey(id);
    const entry = this.sessions.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return entry.data;
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
