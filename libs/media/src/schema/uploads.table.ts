import { index, text, timestamp } from 'drizzle-orm/pg-core';
import { mediaSchema } from './media.schema.js';

/**
 * Every upload URL the vault issued, until a day after: only a key listed
 * here and not registered yet can be registered, and only once. A registered
 * upload keeps its row until then, so that an erase knows every URL that may
 * still write (erasure-watch.table.ts).
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
    /** When its photo was registered (or refused): from then on the upload cannot be registered again. */
    registeredAt: timestamp('registered_at', { withTimezone: true }),
  },
  (table) => [index('uploads_created_at').on(table.createdAt)],
);

export type UploadRow = typeof uploads.$inferSelect;
