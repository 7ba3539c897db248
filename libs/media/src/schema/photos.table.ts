import { index, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { mediaSchema } from './media.schema.js';

/** A registered photo. Its bytes live in the object store under `objectKey`. */
export const photos = mediaSchema.table(
  'photos',
  {
    id: uuid('id').primaryKey(),
    objectKey: text('object_key').notNull().unique('photos_object_key'),
    /** Told from the file's first bytes at registration, never from the upload's header. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // In the list's order exactly (ORDER BY created_at DESC, id DESC: nulls first, PostgreSQL's default for DESC),
    // so a page is read from the index's start. Drizzle's desc() alone makes DESC NULLS LAST, an order the planner
    // cannot use for that ORDER BY (NOT NULL or not): every page then read and sorted the whole table.
    index('photos_created_at').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
  ],
);

export type PhotoRow = typeof photos.$inferSelect;
