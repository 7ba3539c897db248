import { index, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, journalSchema } from './journal.schema.js';

/**
 * Journal entries. Title and content are stored only as AES-256-GCM
 * ciphertext (see crypto/field-cipher.ts); the timestamps stay in clear so the
 * list can be ordered and paged without decrypting it.
 */
export const entries = journalSchema.table(
  'entries',
  {
    id: uuid('id').primaryKey(),
    titleCiphertext: bytea('title_ciphertext'),
    contentCiphertext: bytea('content_ciphertext').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('entries_created_at').on(table.createdAt.desc(), table.id)],
);

export type EntryRow = typeof entries.$inferSelect;
