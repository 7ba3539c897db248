import { Controller } from '@nestjs/common';
import {
  ARCHIVE_PAGE_RECORDS,
  DiscardJournalImport,
  EXPORT_PAGES,
  IMPORT_PAGES,
  JournalImportReadiness,
  fitPage,
  type JournalRecord,
  type RpcRequest,
} from '@vault/contracts';
import { integrityViolation, type Database } from '@vault/persistence';
import { Handles, RpcFailure } from '@vault/transport';
import { asc, count, gt } from 'drizzle-orm';
import { DataKeyService } from '../crypto/data-key.service.js';
import { InjectJournalDb } from '../database.js';
import { openEntry, sealEntry } from '../entries/entry-cipher.js';
import { entries, type EntryRow } from '../schema/entries.table.js';

/**
 * journal-svc's part of an export (entries decrypted, a page at a time) and
 * of a restore (each entry sealed under this vault's own data key, with the
 * id and times it had).
 */
@Controller()
export class JournalArchiveHandlers {
  constructor(
    @InjectJournalDb() private readonly db: Database,
    private readonly keys: DataKeyService,
  ) {}

  @Handles(EXPORT_PAGES.journal)
  async export({ after }: RpcRequest<typeof EXPORT_PAGES.journal>) {
    const query = this.db.select().from(entries).orderBy(asc(entries.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    const rows = await (after ? query.where(gt(entries.id, after)) : query);
    if (rows.length === 0) return { records: [] };
    const key = await this.keys.current();
    return fitPage(
      rows.map((row) => toRecord(key, row)),
      rows.length < ARCHIVE_PAGE_RECORDS,
    );
  }

  @Handles(IMPORT_PAGES.journal)
  async import({ records }: RpcRequest<typeof IMPORT_PAGES.journal>) {
    if (records.length === 0) return { imported: 0 };
    const key = await this.keys.current();
    const rows = records.map((record) => ({
      id: record.id,
      ...sealEntry(key, record.id, { title: record.title ?? undefined, content: record.content }),
      createdAt: new Date(record.createdAt),
      updatedAt: new Date(record.updatedAt),
    }));
    try {
      await this.db.insert(entries).values(rows);
    } catch (error) {
      const violation = integrityViolation(error);
      if (violation) throw new RpcFailure(422, `journal: ${violation.detail ?? 'an entry contradicts another'}`);
      throw error;
    }
    return { imported: rows.length };
  }

  @Handles(JournalImportReadiness)
  async readiness() {
    const [row] = await this.db.select({ value: count() }).from(entries);
    const empty = Number(row.value) === 0;
    return { service: 'journal', empty, holds: empty ? [] : ['journal'] };
  }

  /** The entries only: the data key stays, as it would after the owner deleted them. */
  @Handles(DiscardJournalImport)
  async discard() {
    await this.db.delete(entries);
    return { service: 'journal', discarded: true as const };
  }
}

function toRecord(key: Buffer, row: EntryRow): JournalRecord {
  const entry = openEntry(key, row);
  return { id: entry.id, title: entry.title ?? null, content: entry.content, createdAt: entry.createdAt, updatedAt: entry.updatedAt };
}
