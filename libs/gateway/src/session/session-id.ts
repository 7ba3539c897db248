import { hash, randomBytes } from 'node:crypto';

/** 256 random bits: the cookie's whole secret. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function isWellFormedSessionId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{43}$/.test(id);
}

/** Stores key sessions by a digest, so a copy of the store holds no usable cookie. One call, no Hash object: it runs for every request. */
export function sessionKey(id: string): string {
  return hash('sha256', id, 'base64url');
}
