import type { ServiceArchiveTables } from '@vault/persistence';
import { accessLog } from '../schema/access-log.table.js';
import { erasure } from '../schema/erasure.table.js';

/** Everything audit-svc keeps, and how it goes into the owner's archive. */
export const AUDIT_ARCHIVE_TABLES = {
  archived: {
    accessLog: {
      table: accessLog,
      leftOut: { detail: 'the size of an import, shown in this vault’s log: the archive’s format (version 1) carries what happened, not its size' },
    },
  },
  notArchived: [{ table: erasure, why: 'the moment this vault was last erased: the restoring vault keeps its own' }],
} as const satisfies ServiceArchiveTables;
