import type { ServiceArchiveTables } from '@vault/persistence';
import { erasureWatch } from '../schema/erasure-watch.table.js';
import { photos } from '../schema/photos.table.js';
import { uploads } from '../schema/uploads.table.js';

/** Everything media-svc keeps, and how it goes into the owner's archive (each photo's bytes beside its record). */
export const MEDIA_ARCHIVE_TABLES = {
  archived: {
    photos: {
      table: photos,
      leftOut: { objectKey: 'where this vault’s store keeps the bytes; the archive holds them as photos/<id>.<ext>, and a restore stores them anew' },
    },
  },
  notArchived: [
    { table: uploads, why: 'upload URLs this vault issued, each valid for minutes' },
    { table: erasureWatch, why: 'deadlines of this vault’s last erase, nothing of the owner’s' },
  ],
} as const satisfies ServiceArchiveTables;
