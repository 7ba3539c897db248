import type { ServiceArchiveTables } from '@vault/persistence';
import { dataKeys } from '../schema/data-keys.table.js';
import { entries } from '../schema/entries.table.js';

/** Everything journal-svc keeps, and how it goes into the owner's archive: the entries, decrypted. */
export const JOURNAL_ARCHIVE_TABLES = {
  archived: {
    journal: {
      table: entries,
      leftOut: {
        titleCiphertext: 'carried decrypted, as the record’s title',
        contentCiphertext: 'carried decrypted, as the record’s content',
      },
      carriedAs: { title: 'titleCiphertext, decrypted', content: 'contentCiphertext, decrypted' },
    },
  },
  notArchived: [{ table: dataKeys, why: 'this vault’s own key: the archive carries the entries decrypted, a restore seals them under its own' }],
} as const satisfies ServiceArchiveTables;
