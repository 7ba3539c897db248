import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { sql } from 'drizzle-orm';
import { AUTH_MIGRATIONS } from './database.js';
import { secondFactors } from './schema/second-factors.table.js';
import { clearSecondFactorData } from './second-factor/second-factor.repository.js';

/**
 * The CLI's `reset-second-factor`: the operator's way back in when the owner
 * lost every factor and every recovery code. Removes all factors, the codes
 * and the passkey-only switch; the password alone signs in again. Returns how
 * many factors there were.
 */
export async function resetSecondFactor(connection: Connection): Promise<number> {
  await applyMigrations(connection, AUTH_MIGRATIONS);
  const db = drizzleFor(connection);
  return db.transaction(async (tx) => {
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(secondFactors);
    await clearSecondFactorData(tx as unknown as typeof db);
    return count;
  });
}

/** auth-svc's `main.js reset-second-factor --yes` (distributed mode): the same, on the service's own database. */
export async function resetSecondFactorAt(databaseUrl: string): Promise<number> {
  const connection = await openConnection({ kind: 'postgres', url: databaseUrl, poolSize: 1 });
  try {
    return await resetSecondFactor(connection);
  } finally {
    await connection.close();
  }
}

/** What the operator is told afterwards, by the CLI and by auth-svc alike. */
export function secondFactorResetReport(removed: number): string {
  return removed > 0
    ? `Removed ${removed} second factor${removed === 1 ? '' : 's'} and the recovery codes. The owner signs in with the password alone; sessions already open stay open.\n`
    : 'The owner had no second factor: nothing changed.\n';
}
