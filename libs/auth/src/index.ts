export * from './auth.module.js';
// For tests that look inside auth-svc (e.g. counting the passwords it judges).
export { OwnerCredentialService } from './owner/owner-credential.service.js';
export * from './set-owner-password.js';
export * from './reset-destroyed-vault.js';
export * from './reset-second-factor.js';
export type { OwnerOptions } from './owner/owner.options.js';
export { passwordProblem, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './owner/password-policy.js';
export { hashPassword, verifyPassword, isArgon2idHash } from './owner/password-hasher.js';
export { DEFAULT_LOCKOUT, type LockoutOptions } from './lockout/lockout.options.js';
export { AUTH_MIGRATIONS } from './database.js';
export { AUTH_ARCHIVE_TABLES } from './archive/auth-archive.tables.js';
