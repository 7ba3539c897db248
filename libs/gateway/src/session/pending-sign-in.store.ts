import type { Owner } from '@vault/contracts';
import type { Redis } from 'ioredis';
import { MemoryRecordStore } from './memory-session.store.js';
import { RedisRecordStore } from './redis-session.store.js';
import type { RecordStore } from './session.store.js';

/**
 * A sign-in between its two steps: the password was right (`owner` is set),
 * or a passkey alone was asked for (`owner` absent), and a WebAuthn challenge
 * may be waiting. It is not a session: no route takes it as one, it lives a
 * few minutes, and it is kept where the sessions are (memory or Redis),
 * keyed by the digest of a random id that only the browser's HttpOnly cookie
 * holds.
 */
export interface PendingSignInRecord {
  owner?: Owner;
  challenge?: string;
  /** Epoch milliseconds of its start; it ends PENDING_SIGN_IN_TTL_SECONDS later. */
  startedAt: number;
}

export const PENDING_SIGN_IN_TTL_SECONDS = 300;

export type PendingSignInStore = RecordStore<PendingSignInRecord>;

export const PENDING_SIGN_INS = Symbol('PENDING_SIGN_INS');

/** Kept where the sessions are: in memory (embedded), or in Redis under a prefix of its own (distributed). */
export function pendingSignInStore(redis: Redis | undefined): PendingSignInStore {
  const ttlMs = PENDING_SIGN_IN_TTL_SECONDS * 1000;
  const startOf = (pending: PendingSignInRecord) => pending.startedAt;
  return redis ? new RedisRecordStore(redis, ttlMs, 'vault:pending-sign-in:', startOf) : new MemoryRecordStore(ttlMs, startOf);
}
