import type { Owner } from '@vault/contracts';

export interface SessionData {
  owner: Owner;
  /** Epoch milliseconds of the sign-in; the session ends a fixed time after it. */
  signedInAt: number;
}

/**
 * Server-side sessions. The store, not the cookie, enforces the expiry: an
 * entry older than its time to live is gone even if a browser still sends it.
 */
export interface SessionStore {
  create(data: SessionData): Promise<string>;
  get(id: string): Promise<SessionData | undefined>;
  destroy(id: string): Promise<void>;
  /** Ends every session at once (self-destruct). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export const SESSION_STORE = Symbol('SESSION_STORE');
