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
  (table) => [index('access_log_created_at').on(table.createdAt.desc(), table.id)],
);

export type AccessLogRow = typeof accessLog.$inferSelect;
