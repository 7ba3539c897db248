import { sql } from 'drizzle-orm';
import { index, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, journalSchema, xid8 } from './journal.schema.js';

/** The id of the transaction writing the row. */
export const CURRENT_TRANSACTION = sql`pg_current_xact_id()`;

/**
 * Journal entries. Title and content are stored only as AES-256-GCM
 * ciphertext: together in `content_ciphertext` (entries/entry-cipher.ts),
 * or, in rows written before that, each in its own column. The timestamps
 * stay in clear so the list can be ordered and paged without decrypting it.
 */
export const entries = journalSchema.table(
  'entries',
  {
    id: uuid('id').primaryKey(),
    titleCiphertext: bytea('title_ciphertext'),
    contentCiphertext: bytea('content_ciphertext').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** The transaction that wrote the row last (set on insert and on every update): the search index's change feed. */
    revision: xid8('revision').notNull().default(CURRENT_TRANSACTION),
  },
  (table) => [
    // In the list's order exactly (ORDER BY created_at DESC, id DESC: nulls first, PostgreSQL's default for DESC),
    // so a page is read from the index's start. Drizzle's desc() alone makes DESC NULLS LAST, an order the planner
    // cannot use for that ORDER BY (NOT NULL or not): every page then read and sorted the whole table.
    index('entries_created_at').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('entries_revision').on(table.revision),
  ],
);

/**
 * The ids of deleted entries and the transaction that deleted them: no text,
 * only what tells every journal-svc replica's search index to drop an entry.
 */
export const entryRemovals = journalSchema.table(
  'entry_removals',
  {
    id: uuid('id').primaryKey(),
    revision: xid8('revision').notNull().default(CURRENT_TRANSACTION),
  },
  (table) => [index('entry_removals_revision').on(table.revision)],
);

export type EntryRow = typeof entries.$inferSelect;
