import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, eq, lte, sql } from 'drizzle-orm';
import { InjectMediaDb } from '../database.js';
import { erasureWatch } from '../schema/erasure-watch.table.js';

/** The deadlines of the watches an erase began, one per prefix. */
@Injectable()
export class ErasureWatchRepository {
  constructor(@InjectMediaDb() private readonly db: Database) {}

  /** Watches a prefix until `until`, or longer when an earlier erase asked for longer. */
  async extend(prefix: string, until: Date): Promise<void> {
    await this.db
      .insert(erasureWatch)
      .values({ prefix, watchUntil: until })
      .onConflictDoUpdate({ target: erasureWatch.prefix, set: { watchUntil: sql`greatest(${erasureWatch.watchUntil}, excluded.watch_until)` } });
  }

  async until(prefix: string): Promise<Date | undefined> {
    const [row] = await this.db.select().from(erasureWatch).where(eq(erasureWatch.prefix, prefix));
    return row?.watchUntil;
  }

  /** Ends the watch when its deadline is not later than `now` (an erase since may have extended it). */
  async endBy(prefix: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .delete(erasureWatch)
      .where(and(eq(erasureWatch.prefix, prefix), lte(erasureWatch.watchUntil, now)))
      .returning({ prefix: erasureWatch.prefix });
    return rows.length > 0;
  }
}
