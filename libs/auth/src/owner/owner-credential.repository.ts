import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { eq } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { ownerCredential } from '../schema/owner-credential.table.js';

@Injectable()
export class OwnerCredentialRepository {
  constructor(@InjectAuthDb() private readonly db: Database) {}

  async findHash(): Promise<string | undefined> {
    const [row] = await this.db.select().from(ownerCredential).where(eq(ownerCredential.id, 1));
    return row?.passwordHash;
  }

  async saveHash(passwordHash: string): Promise<void> {
    await saveOwnerHash(this.db, passwordHash);
  }
}

/** Also used by the CLI, which has no Nest container. */
export async function saveOwnerHash(db: Database, passwordHash: string): Promise<void> {
  await db
    .insert(ownerCredential)
    .values({ id: 1, passwordHash })
    .onConflictDoUpdate({ target: ownerCredential.id, set: { passwordHash, updatedAt: new Date() } });
}
