import { sql } from 'drizzle-orm';
import { boolean, check, timestamp } from 'drizzle-orm/pg-core';
import { auditSchema } from './audit.schema.js';

/**
 * When the access log was last erased: one row, made by the migration with
 * `-infinity`. An access event from before that moment that arrives after it
 * (events travel asynchronously, and the broker may deliver one again after
 * a restart) is not recorded, so nothing from before a self-destruct comes
 * back. In the database, not in memory: every replica of audit-svc, and one
 * that restarts, sees the same moment, and the row is locked by the erase
 * and by each recording so that neither slips past the other. Only an
 * instant, nothing of the erased vault.
 */
export const erasure = auditSchema.table(
  'erasure',
  {
    id: boolean('id').primaryKey().default(true),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull(),
  },
  (table) => [check('erasure_one_row', sql`${table.id}`)],
);
