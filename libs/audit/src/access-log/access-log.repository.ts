import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { desc } from 'drizzle-orm';
import { InjectAuditDb } from '../database.js';
import { accessLog, type AccessLogRow } from '../schema/access-log.table.js';

@Injectable()
export class AccessLogRepository {
  constructor(@InjectAuditDb() private readonly db: Database) {}

  /** Idempotent: the same event delivered twice is one row. */
  async record(row: AccessLogRow): Promise<void> {
    await this.db.insert(accessLog).values(row).onConflictDoNothing({ target: accessLog.id });
  }

  newestFirst(limit: number, offset: number): Promise<AccessLogRow[]> {
    return this.db.select().from(accessLog).orderBy(desc(accessLog.createdAt), desc(accessLog.id)).limit(limit).offset(offset);
  }
}
