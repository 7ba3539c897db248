import type { Owner } from '@vault/contracts';

export interface SessionData {
  owner: Owner;
  /** Epoch milliseconds of the sign-in; the session ends a fixed time after it. */
  signedInAt: number;
  /**
   * Epoch milliseconds of the last full authentication (the sign-in, or a
   * re-authentication since): the drastic actions need it to be recent.
   * Absent in sessions issued before it was recorded: the sign-in counts.
   */
  authenticatedAt?: number;
  /** A WebAuthn challenge this session asked for (enrolling a passkey, re-authenticating with one), until it is answered. */
  challenge?: string;
}

/**
 * Short-lived records keyed by a random id that only the browser's cookie
 * holds (the store keeps its digest). The store, not the cookie, enforces the
 * expiry: an entry older than its time to live is gone even if a browser
 * still sends it.
 */
export interface RecordStore<T> {
  create(data: T): Promise<string>;
  get(id: string): Promise<T | undefined>;
  /** Replaces a live record's data; its expiry stays where its start put it. */
  update(id: string, data: T): Promise<void>;
  destroy(id: string): Promise<void>;
  /** Ends every record at once (self-destruct). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** Server-side sessions. */
export type SessionStore = RecordStore<SessionData>;

export const SESSION_STORE = Symbol('SESSION_STORE');
