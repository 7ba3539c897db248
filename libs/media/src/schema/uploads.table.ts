import { index, text, timestamp } from 'drizzle-orm/pg-core';
import { mediaSchema } from './media.schema.js';

/**
 * An upload URL the vault issued and whose photo is not registered yet. Only
 * a key listed here can be registered, and only once: registration removes it.
 */
export const uploads = mediaSchema.table(
  'uploads',
  {
    objectKey: text('object_key').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The URL accepts its PUT until then. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the embedded store received the file; its URL is spent from then on. */
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
  },
  (table) => [index('uploads_created_at').on(table.createdAt)],
);

export type UploadRow = typeof uploads.$inferSelect;
