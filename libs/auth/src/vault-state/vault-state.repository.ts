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
    const [row] = await this.db.select().from(vaultState).where(eq(vaultState.id, 1));
    return { destroyed: row?.destroyed ?? false, globalAccess: row?.globalAccess ?? false };
  }
}
