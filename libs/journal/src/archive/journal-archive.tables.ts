import type { ServiceArchiveTables } from '@vault/persistence';
import { dataKeys } from '../schema/data-keys.table.js';
import { entries, entryRemovals } from '../schema/entries.table.js';

/** Everything journal-svc keeps, and how it goes into the owner's archive: the entries, decrypted. */
export const JOURNAL_ARCHIVE_TABLES = {
  archived: {
    journal: {
      table: entries,
      leftOut: {
        titleCiphertext: 'carried decrypted, as the record’s title',
        contentCiphertext: 'carried decrypted, as the record’s content',
        revision: 'this database’s own transaction counter (the search index’s change feed); a restore writes its own',
      },
      carriedAs: { title: 'titleCiphertext, decrypted', content: 'contentCiphertext, decrypted' },
    },
  },
  notArchived: [
    { table: dataKeys, why: 'this vault’s own key: the archive carries the entries decrypted, a restore seals them under its own' },
    { table: entryRemovals, why: 'ids of deleted entries for the search indexes of this vault’s replicas: nothing the owner keeps' },
  ],
} as const satisfies ServiceArchiveTables;
