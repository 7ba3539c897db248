import { sql } from 'drizzle-orm';
import { boolean, check, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/**
 * The one owner's argon2id hash, and whether a passkey alone may sign them in.
 * A single row: the vault has exactly one owner.
 */
export const ownerCredential = authSchema.table(
  'owner_credential',
  {
    id: smallint('id').primaryKey().default(1),
    passwordHash: text('password_hash').notNull(),
    passkeySignIn: boolean('passkey_sign_in').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('owner_credential_single_row', sql`${table.id} = 1`)],
);
