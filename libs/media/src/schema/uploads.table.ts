import { index, text, timestamp } from 'drizzle-orm/pg-core';
import { mediaSchema } from './media.schema.js';

/**
 * Every upload URL the vault issued, until it can no longer write (its
 * expiry, then a grace for a PUT still under way): only a key listed here,
 * neither registered nor discarded, can be registered, and only once. The
 * upload sweep (UploadSweeper) removes an upload's object and then its row
 * once that time has passed, and an object without a row at any time.
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
    /**
     * When it became something to keep nothing of: refused at registration,
     * or not registered in time. Whatever its key holds is removed at once,
     * and again at each sweep while the row lasts (a presigned URL still
     * writes until it expires).
     */
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
  },
  (table) => [index('uploads_created_at').on(table.createdAt), index('uploads_expires_at').on(table.expiresAt)],
);

export type UploadRow = typeof uploads.$inferSelect;
