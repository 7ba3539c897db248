import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { desc, sql } from 'drizzle-orm';
import { InjectAuditDb } from '../database.js';
import { accessLog, type AccessLogRow } from '../schema/access-log.table.js';
import { erasure } from '../schema/erasure.table.js';

@Injectable()
export class AccessLogRepository {
  constructor(@InjectAuditDb() private readonly db: Database) {}

  /**
   * Stores the attempt unless the log was erased at or after it happened;
   * idempotent: the same event delivered twice is one row. One statement:
   * the insert reads the erasure row FOR SHARE, so an erase running at the
   * same moment either waits for this row and deletes it, or is seen first
   * (its later instant is read again once it commits) and nothing is stored.
   */
  async recordUnlessErased(row: AccessLogRow): Promise<void> {
    await this.db.execute(sql`
      insert into ${accessLog} (id, ip_address, user_agent, action, success, detail, created_at)
      select ${row.id}::uuid, ${row.ipAddress}::text, ${row.userAgent}::text, ${row.action}::text, ${row.success}::boolean, ${row.detail}::text, ${row.createdAt.toISOString()}::timestamptz
        from ${erasure}
       where ${erasure.erasedAt} < ${row.createdAt.toISOString()}::timestamptz
         for share
      on conflict (id) do nothing`);
  }

  /**
   * Erases the whole log and moves the erasure instant to `at` (never back),
   * in one transaction: a recording that holds the erasure row finishes
   * first and its row is deleted with the rest.
   */
  async eraseAll(at: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(erasure).set({ erasedAt: sql`greatest(${erasure.erasedAt}, ${at.toISOString()}::timestamptz)` });
      await tx.delete(accessLog);
    });
  }

  newestFirst(limit: number, offset: number): Promise<AccessLogRow[]> {
    return this.db.select().from(accessLog).orderBy(desc(accessLog.createdAt), desc(accessLog.id)).limit(limit).offset(offset);
  }
}
