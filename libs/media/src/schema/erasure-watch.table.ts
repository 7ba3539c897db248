import { text, timestamp } from 'drizzle-orm/pg-core';
import { mediaSchema } from './media.schema.js';

/**
 * How long after an erase media-svc keeps removing what arrives in the
 * bucket under a prefix (`uploads/`): a presigned URL cannot be revoked, so
 * one issued before the erase can still write until it expires. Only a
 * deadline, nothing of the erased vault; kept in the database so that a
 * media-svc that restarts resumes the watch, and removed when it ends.
 */
export const erasureWatch = mediaSchema.table('erasure_watch', {
  prefix: text('prefix').primaryKey(),
  watchUntil: timestamp('watch_until', { withTimezone: true }).notNull(),
});

export type ErasureWatchRow = typeof erasureWatch.$inferSelect;
