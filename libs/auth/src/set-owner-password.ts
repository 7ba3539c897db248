import { applyMigrations, drizzleFor, type Connection } from '@vault/persistence';
import { AUTH_MIGRATIONS } from './database.js';
import { saveOwnerHash } from './owner/owner-credential.repository.js';
import { hashPassword } from './owner/password-hasher.js';
import { passwordProblem } from './owner/password-policy.js';

/** The CLI's `set-password`: stores the hash of a new owner password, if it passes the password rules. */
export async function setOwnerPassword(connection: Connection, password: string, context: string[] = []): Promise<void> {
  const problem = await passwordProblem(password, context);
  if (problem) throw new Error(`The password ${problem}.`);
  await applyMigrations(connection, AUTH_MIGRATIONS);
  await saveOwnerHash(drizzleFor(connection), await hashPassword(password));
}
