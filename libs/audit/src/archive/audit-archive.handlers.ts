import { Controller } from '@nestjs/common';
import { ARCHIVE_PAGE_RECORDS, DiscardAccessLogImport, EXPORT_PAGES, IMPORT_PAGES, fitPage, type ArchiveRecord, type RpcRequest } from '@vault/contracts';
import { archiveRecordOf, integrityViolation, rowOfArchiveRecord, type Database } from '@vault/persistence';
import { Handles, RpcFailure } from '@vault/transport';
import { asc, gt, inArray } from 'drizzle-orm';
import { InjectAuditDb } from '../database.js';
import { accessLog } from '../schema/access-log.table.js';
import { AUDIT_ARCHIVE_TABLES } from './audit-archive.tables.js';

/**
 * audit-svc's part of an export and of a restore: the access log as stored.
 * A restore adds the archive's records beside the new vault's own (its first
 * sign-ins), which stay.
 */
@Controller()
export class AuditArchiveHandlers {
  constructor(@InjectAuditDb() private readonly db: Database) {}

  @Handles(EXPORT_PAGES.accessLog)
  async export({ after }: RpcRequest<typeof EXPORT_PAGES.accessLog>) {
    const query = this.db.select().from(accessLog).orderBy(asc(accessLog.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    const rows = await (after ? query.where(gt(accessLog.id, after)) : query);
    const records = rows.map((row) => archiveRecordOf(row, AUDIT_ARCHIVE_TABLES.archived.accessLog) as ArchiveRecord<'accessLog'>);
    return fitPage(records, rows.length < ARCHIVE_PAGE_RECORDS);
  }

  @Handles(IMPORT_PAGES.accessLog)
  async import({ records }: RpcRequest<typeof IMPORT_PAGES.accessLog>) {
    if (records.length === 0) return { imported: 0 };
    try {
      await this.db.insert(accessLog).values(records.map((record) => rowOfArchiveRecord(accessLog, record)));
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
