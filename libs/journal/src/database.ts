import { Inject } from '@nestjs/common';
import type { ServiceMigrations } from '@vault/persistence';
import { fileURLToPath } from 'node:url';

/** The token of journal-svc's Drizzle handle. */
export const JOURNAL_DB = Symbol('JOURNAL_DB');
export const InjectJournalDb = () => Inject(JOURNAL_DB);

/** Its schema, and its migrations' folder: beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const JOURNAL_MIGRATIONS: ServiceMigrations = { schema: 'journal', folder: fileURLToPath(new URL('../migrations', import.meta.url)) };
