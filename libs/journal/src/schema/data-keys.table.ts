import { sql } from 'drizzle-orm';
import { check, smallint, timestamp } from 'drizzle-orm/pg-core';
import { bytea, journalSchema } from './journal.schema.js';

/**
 * The journal's data key, wrapped (encrypted) by the master key, which the
 * database never holds. One row; erasing it makes every entry unreadable.
 */
export const dataKeys = journalSchema.table(
  'data_keys',
  {
    id: smallint('id').primaryKey().default(1),
    wrappedKey: bytea('wrapped_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('data_keys_single_row', sql`${table.id} = 1`)],
);
