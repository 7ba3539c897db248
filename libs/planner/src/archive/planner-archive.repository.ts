import { Injectable } from '@nestjs/common';
import { ARCHIVE_PAGE_RECORDS, INITIAL_BALANCE } from '@vault/contracts';
import { integrityViolation, type Database } from '@vault/persistence';
import { RpcFailure } from '@vault/transport';
import { asc, count, sql, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { InjectPlannerDb } from '../database.js';
import { activities } from '../schema/activities.table.js';
import { balance } from '../schema/balance.table.js';
import { scheduleItems } from '../schema/schedule-items.table.js';
import { studies } from '../schema/studies.table.js';
import { targets } from '../schema/targets.table.js';
import { weeklyTemplates } from '../schema/weekly-templates.table.js';

/** The planner's tables of records, each keyed by a uuid `id`. */
export const RECORD_TABLES = { targets, weeklyTemplates, scheduleItems, missions: activities, studies } as const;
export type RecordTable = (typeof RECORD_TABLES)[keyof typeof RECORD_TABLES];
type Keyed = PgTable & { id: AnyPgColumn };

/** Reads and writes whole rows, ids and timestamps included: what an export takes out and a restore puts back. */
@Injectable()
export class PlannerArchiveRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  /** Up to a page of rows after `after`, in id order. */
  page<T extends RecordTable>(table: T, after?: string): Promise<InferSelectModel<T>[]> {
    const keyed = table as unknown as Keyed;
    const query = this.db.select().from(keyed).orderBy(asc(keyed.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    return (after ? query.where(sql`${keyed.id} > ${after}::uuid`) : query) as unknown as Promise<InferSelectModel<T>[]>;
  }

  /** One page in one transaction; a record that contradicts another is refused with what it broke. */
  async insert<T extends RecordTable>(table: T, rows: InferInsertModel<T>[], kind: string): Promise<number> {
    if (rows.length === 0) return 0;
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(table).values(rows as never);
      });
    } catch (error) {
      const violation = integrityViolation(error);
      if (violation) throw new RpcFailure(422, `${kind}: ${violation.detail ?? violation.constraint ?? 'a record contradicts another'}`);
      throw error;
    }
    return rows.length;
  }

  /** The balance as decimal text; a vault that never spent anything has no row yet. */
  async balance(): Promise<string> {
    const [row] = await this.db.select({ amount: balance.amount }).from(balance);
    return row?.amount ?? INITIAL_BALANCE.toFixed(2);
  }

  async setBalance(amount: string): Promise<void> {
    await this.db.insert(balance).values({ id: 1, amount }).onConflictDoUpdate({ target: balance.id, set: { amount } });
  }

  /** Which kinds hold records, and whether the balance moved: a vault is empty only with none and an untouched balance. */
  async holdings(): Promise<string[]> {
    const holds: string[] = [];
    for (const [kind, table] of Object.entries(RECORD_TABLES)) {
      const [row] = await this.db.select({ value: count() }).from(table as PgTable);
      if (Number(row.value) > 0) holds.push(kind);
    }
    if (Number(await this.balance()) !== INITIAL_BALANCE) holds.push('balance');
    return holds;
  }

  /** Every row a failed restore wrote, and the balance back where a vault starts. */
  async discardAll(): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const table of [scheduleItems, weeklyTemplates, targets, activities, studies, balance]) await tx.delete(table);
    });
  }
}
