import { Injectable } from '@nestjs/common';
import { type Database, statementName } from '@vault/persistence';
import { count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { InjectJournalDb } from '../database.js';
import { CURRENT_TRANSACTION, entries, entryRemovals, type EntryRow } from '../schema/entries.table.js';

/**
 * The list's page, newest first, its limit and offset placeholders (LIMIT
 * NULL is no limit, OFFSET NULL none: one statement for every page).
 */
export function pageOfEntries(db: Database) {
  return db.select().from(entries).orderBy(desc(entries.createdAt), desc(entries.id)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
}

/** Ciphertext rows only: encryption happens in JournalService, never here. */
@Injectable()
export class EntriesRepository {
  // The journal's page and its new entry, prepared once (statementName).
  private readonly listPage;
  private readonly insertOne;

  constructor(@InjectJournalDb() private readonly db: Database) {
    this.listPage = pageOfEntries(db).prepare(statementName(entries, 'page'));
    this.insertOne = db
      .insert(entries)
      .values({
        id: sql.placeholder('id'),
        titleCiphertext: sql.placeholder('titleCiphertext'),
        contentCiphertext: sql.placeholder('contentCiphertext'),
        createdAt: sql.placeholder('createdAt'),
        updatedAt: sql.placeholder('updatedAt'),
      })
      .returning()
      .prepare(statementName(entries, 'insert'));
  }

  list(page: { limit?: number; offset?: number }): Promise<EntryRow[]> {
    return this.listPage.execute({ limit: page.limit ?? null, offset: page.offset ?? null });
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ value: count() }).from(entries);
    return Number(row.value);
  }

  /**
   * The entries whose creation falls, in `timeZone`, on one of `monthDays`
   * (`MM-DD`) before `date`: newest first, at most `limit`, each with its
   * year there. Unknown zone names are refused by the contract first.
   */
  async writtenOn(monthDays: string[], date: string, timeZone: string, limit: number): Promise<Array<EntryRow & { year: number }>> {
    const local = sql`(${entries.createdAt} at time zone ${timeZone})`;
    return this.db
      .select({ ...getTableColumns(entries), year: sql<number>`extract(year from ${local})::int` })
      .from(entries)
      .where(sql`to_char(${local}, 'MM-DD') in ${monthDays} and ${local}::date < ${date}::date`)
      .orderBy(desc(entries.createdAt), desc(entries.id))
      .limit(limit);
  }

  async insert(row: Omit<typeof entries.$inferInsert, 'revision'>): Promise<EntryRow> {
    const [inserted] = await this.insertOne.execute({ titleCiphertext: null, ...row });
    return inserted;
  }

  async update(id: string, values: Pick<EntryRow, 'titleCiphertext' | 'contentCiphertext' | 'updatedAt'>): Promise<EntryRow | undefined> {
    const [row] = await this.db
      .update(entries)
      .set({ ...values, revision: CURRENT_TRANSACTION })
      .where(eq(entries.id, id))
      .returning();
    return row;
  }

  /** Adds the rows whose ids are free (an import's page); answers the ids it added, leaving the others as they are. */
  async insertNew(rows: Array<typeof entries.$inferInsert>): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db.insert(entries).values(rows).onConflictDoNothing({ target: entries.id }).returning({ id: entries.id });
    return inserted.map(({ id }) => id);
  }

  /** Deletes the entry and notes its id (no text) for the search indexes of every replica, in one transaction. */
  async remove(id: string): Promise<boolean> {
    return (await this.removeAll([id])) === 1;
  }

  /** The same for many (an import taken back): answers how many were there. */
  removeAll(ids: string[]): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.db.transaction(async (tx) => {
      const removed = await tx.delete(entries).where(inArray(entries.id, ids)).returning({ id: entries.id });
      if (removed.length > 0)
        await tx
          .insert(entryRemovals)
          .values(removed)
          .onConflictDoUpdate({ target: entryRemovals.id, set: { revision: CURRENT_TRANSACTION } });
      return removed.length;
    });
  }
}
