import { Controller } from '@nestjs/common';
import { ARCHIVE_PAGE_RECORDS, DiscardAccessLogImport, ExportAccessLog, ImportAccessLog, fitPage, type RpcRequest } from '@vault/contracts';
import { integrityViolation, type Database } from '@vault/persistence';
import { Handles, RpcFailure } from '@vault/transport';
import { asc, gt, inArray } from 'drizzle-orm';
import { InjectAuditDb } from '../database.js';
import { accessLog } from '../schema/access-log.table.js';

/**
 * audit-svc's part of an export and of a restore: the access log as stored.
 * A restore adds the archive's records beside the new vault's own (its first
 * sign-ins), which stay.
 */
@Controller()
export class AuditArchiveHandlers {
  constructor(@InjectAuditDb() private readonly db: Database) {}

  @Handles(ExportAccessLog)
  async export({ after }: RpcRequest<typeof ExportAccessLog>) {
    const query = this.db.select().from(accessLog).orderBy(asc(accessLog.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    const rows = await (after ? query.where(gt(accessLog.id, after)) : query);
    const records = rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    return fitPage(records, rows.length < ARCHIVE_PAGE_RECORDS);
  }

  @Handles(ImportAccessLog)
  async import({ records }: RpcRequest<typeof ImportAccessLog>) {
    if (records.length === 0) return { imported: 0 };
    try {
      await this.db.insert(accessLog).values(records.map((record) => ({ ...record, createdAt: new Date(record.createdAt) })));
    } catch (error) {
      const violation = integrityViolation(error);
      if (violation) throw new RpcFailure(422, `accessLog: ${violation.detail ?? 'a record contradicts another'}`);
      throw error;
    }
    return { imported: records.length };
  }

  @Handles(DiscardAccessLogImport)
  async discard({ ids }: RpcRequest<typeof DiscardAccessLogImport>) {
    if (ids.length === 0) return { discarded: 0 };
    return { discarded: (await this.db.delete(accessLog).where(inArray(accessLog.id, ids)).returning({ id: accessLog.id })).length };
  }
}
