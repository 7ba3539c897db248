import { Injectable } from '@nestjs/common';
import { ARCHIVE_PAGE_RECORDS, INITIAL_BALANCE, fitPage, type ArchiveRecord } from '@vault/contracts';
import { archiveRecordOf, integrityViolation, rowOfArchiveRecord, type Database } from '@vault/persistence';
import { RpcFailure } from '@vault/transport';
import { asc, count, sql, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { InjectPlannerDb } from '../database.js';
import { balance } from '../schema/balance.table.js';
import { PLANNER_TABLES } from '../schema/planner-tables.js';
import { RECORD_TABLES, type PlannerRecordKind } from './planner-archive.tables.js';

export type RecordTable = (typeof RECORD_TABLES)[PlannerRecordKind]['table'];
type Keyed = PgTable & { id: AnyPgColumn };

/** Reads and writes whole rows, ids and timestamps included: what an export takes out and a restore puts back. */
@Injectable()
export class PlannerArchiveRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  /** A page of one kind's records after `after`, as the archive carries them; `next` names the following page. */
  async exportPage<K extends PlannerRecordKind>(kind: K, after?: string): Promise<{ records: ArchiveRecord<K>[]; next?: string }> {
    const rows = await this.page(RECORD_TABLES[kind].table, after);
    const records = rows.map((row) => archiveRecordOf(row, RECORD_TABLES[kind]) as ArchiveRecord<K> & { id: string });
    return fitPage(records, rows.length < ARCHIVE_PAGE_RECORDS);
  }

  /** One page of one kind's records, back as rows, in one transaction. */
  async importPage<K extends PlannerRecordKind>(kind: K, records: ArchiveRecord<K>[]): Promise<{ imported: number }> {
    const { table } = RECORD_TABLES[kind];
    return {
      imported: await this.insert(
        table,
        records.map((record) => rowOfArchiveRecord(table, record)),
        kind,
      ),
    };
  }

  /** Up to a page of rows after `after`, in id order. */
  private page<T extends RecordTable>(table: T, after?: string): Promise<InferSelectModel<T>[]> {
    const keyed = table as unknown as Keyed;
    const query = this.db.select().from(keyed).orderBy(asc(keyed.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    return (after ? query.where(sql`${keyed.id} > ${after}::uuid`) : query) as unknown as Promise<InferSelectModel<T>[]>;
  }

  /** One page in one transaction; a record that contradicts another is refused with what it broke. */
  private async insert<T extends RecordTable>(table: T, rows: InferInsertModel<T>[], kind: string): Promise<number> {
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
    for (const [kind, { table }] of Object.entries(RECORD_TABLES)) {
      const [row] = await this.db.select({ value: count() }).from(table as PgTable);
      if (Number(row.value) > 0) holds.push(kind);
    }
    if (Number(await this.balance()) !== INITIAL_BALANCE) holds.push('balance');
    return holds;
  }

  /** Every row a failed restore wrote, and the balance back where a vault starts. */
  async discardAll(): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const table of PLANNER_TABLES) await tx.delete(table);
    });
  }
}
