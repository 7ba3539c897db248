import { applyMigrations, drizzleFor, type Connection } from '@vault/persistence';
import { AUTH_MIGRATIONS } from './database.js';
import { saveOwnerHash } from './owner/owner-credential.repository.js';
import { hashPassword } from './owner/password-hasher.js';

/** The CLI's `set-password`: stores the hash of a new owner password. */
export async function setOwnerPassword(connection: Connection, password: string): Promise<void> {
  if (password.trim().length < 12) throw new Error('The password must have at least 12 characters.');
  await applyMigrations(connection, { schema: 'auth', folder: AUTH_MIGRATIONS });
  await saveOwnerHash(drizzleFor(connection), await hashPassword(password));
}
