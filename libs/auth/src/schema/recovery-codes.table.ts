import { serial, text, timestamp } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/** The ten single-use recovery codes, as argon2id hashes only; a used one keeps its row with the time it was used. */
export const recoveryCodes = authSchema.table('recovery_codes', {
  id: serial('id').primaryKey(),
  codeHash: text('code_hash').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
