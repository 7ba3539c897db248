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
  (table) => [index('photos_created_at').on(table.createdAt.desc(), table.id.desc())],
);

export type PhotoRow = typeof photos.$inferSelect;
