import { Inject } from '@nestjs/common';
import { fileURLToPath } from 'node:url';

/** The token of journal-svc's Drizzle handle. */
export const JOURNAL_DB = Symbol('JOURNAL_DB');
export const InjectJournalDb = () => Inject(JOURNAL_DB);

/** Beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const JOURNAL_MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
