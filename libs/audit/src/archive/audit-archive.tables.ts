import type { ServiceArchiveTables } from '@vault/persistence';
import { accessLog } from '../schema/access-log.table.js';
import { erasure } from '../schema/erasure.table.js';

/** Everything audit-svc keeps, and how it goes into the owner's archive. */
export const AUDIT_ARCHIVE_TABLES = {
  archived: { accessLog: { table: accessLog } },
  notArchived: [{ table: erasure, why: 'the moment this vault was last erased: the restoring vault keeps its own' }],
} as const satisfies ServiceArchiveTables;
