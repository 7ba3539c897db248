import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { count, desc, eq } from 'drizzle-orm';
import { InjectJournalDb } from '../database.js';
import { entries, type EntryRow } from '../schema/entries.table.js';

/** Ciphertext rows only: encryption happens in JournalService, never here. */
@Injectable()
export class EntriesRepository {
  constructor(@InjectJournalDb() private readonly db: Database) {}

  list(page: { limit?: number; offset?: number }): Promise<EntryRow[]> {
    const query = this.db.select().from(entries).orderBy(desc(entries.createdAt), desc(entries.id)).$dynamic();
    if (page.limit !== undefined) query.limit(page.limit);
    if (page.offset !== undefined) query.offset(page.offset);
    return query;
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ value: count() }).from(entries);
    return Number(row.value);
  }

  async insert(row: EntryRow): Promise<EntryRow> {
    const [inserted] = await this.db.insert(entries).values(row).returning();
    return inserted;
  }

  async update(id: string, values: Pick<EntryRow, 'titleCiphertext' | 'contentCiphertext' | 'updatedAt'>): Promise<EntryRow | undefined> {
    const [row] = await this.db.update(entries).set(values).where(eq(entries.id, id)).returning();
    return row;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.delete(entries).where(eq(entries.id, id)).returning({ id: entries.id })).length > 0;
  }
}
