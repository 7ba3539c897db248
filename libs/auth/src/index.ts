export * from './auth.module.js';
export * from './set-owner-password.js';
export type { OwnerOptions } from './owner/owner.options.js';
export { hashPassword, verifyPassword, isArgon2idHash } from './owner/password-hasher.js';
