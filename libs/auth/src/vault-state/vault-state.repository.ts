import { Injectable } from '@nestjs/common';
import type { VaultState } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { eq } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { vaultState } from '../schema/vault-state.table.js';

@Injectable()
export class VaultStateRepository {
  constructor(@InjectAuthDb() private readonly db: Database) {}

  async read(): Promise<VaultState> {
    return readVaultState(this.db);
  }

  async update(change: Partial<VaultState>): Promise<VaultState> {
    return writeVaultState(this.db, change);
  }
}

export async function readVaultState(db: Database): Promise<VaultState> {
  const [row] = await db.select().from(vaultState).where(eq(vaultState.id, 1));
  return { destroyed: row?.destroyed ?? false, globalAccess: row?.globalAccess ?? false };
}

/** Also used by the CLI, which has no Nest container. */
export async function writeVaultState(db: Database, change: Partial<VaultState>): Promise<VaultState> {
  const [row] = await db
    .insert(vaultState)
    .values({ id: 1, ...change })
    .onConflictDoUpdate({ target: vaultState.id, set: { ...change, updatedAt: new Date() } })
    .returning();
  return { destroyed: row.destroyed, globalAccess: row.globalAccess };
}
