export * from './auth.module.js';
export * from './set-owner-password.js';
export * from './reset-destroyed-vault.js';
export type { OwnerOptions } from './owner/owner.options.js';
export { hashPassword, verifyPassword, isArgon2idHash } from './owner/password-hasher.js';
export { DEFAULT_LOCKOUT, type LockoutOptions } from './lockout/lockout.options.js';
export { AUTH_MIGRATIONS } from './database.js';
