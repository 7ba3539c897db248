import { applyMigrations, drizzleFor, type Connection } from '@vault/persistence';
import { AUTH_MIGRATIONS } from './database.js';
import { readVaultState, writeVaultState } from './vault-state/vault-state.repository.js';

/**
 * The CLI's `start-new-vault`: the only way out of the destroyed state. Every
 * service's data was erased by the self-destruct; this clears the mark, and
 * the next start begins an empty vault (with a new owner password).
 */
export async function resetDestroyedVault(connection: Connection): Promise<'reset' | 'not-destroyed'> {
  await applyMigrations(connection, AUTH_MIGRATIONS);
  const db = drizzleFor(connection);
  if (!(await readVaultState(db)).destroyed) return 'not-destroyed';
  await writeVaultState(db, { destroyed: false, globalAccess: false });
  return 'reset';
}
