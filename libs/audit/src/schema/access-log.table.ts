import { boolean, index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { auditSchema } from './audit.schema.js';

/** One row per access attempt. The id is the event's, so a redelivered event is stored once. */
export const accessLog = auditSchema.table(
  'access_log',
  {
    id: uuid('id').primaryKey(),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent'),
    action: text('action').notNull(),
    success: boolean('success').notNull(),
    /** An import's size (bytes, entries, photos), never what it held. */
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // In the list's order exactly (ORDER BY created_at DESC, id DESC: nulls first, PostgreSQL's default for DESC),
    // so a page is read from the index's start. Drizzle's desc() alone makes DESC NULLS LAST, an order the planner
    // cannot use for that ORDER BY (NOT NULL or not): every page then read and sorted the whole table.
    index('access_log_created_at').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
  ],
);

export type AccessLogRow = typeof accessLog.$inferSelect;
