import { sql } from 'drizzle-orm';
import { bigint, check, integer, jsonb, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/**
 * The owner's second factors. A TOTP factor keeps its shared secret (the
 * code is computed from it, so it cannot be a hash) and the last time step a
 * code was accepted for, so no code is taken twice; it counts only once a
 * first code confirmed it. A passkey keeps the credential's id, public key and
 * signature counter.
 */
export const secondFactors = authSchema.table(
  'second_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['passkey', 'totp'] }).notNull(),
    name: text('name').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    totpSecret: text('totp_secret'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    credentialId: text('credential_id').unique(),
    publicKey: text('public_key'),
    signCount: integer('sign_count'),
    transports: jsonb('transports').$type<string[]>(),
  },
  (table) => [
    check(
      'second_factors_kind_fields',
      sql`(${table.kind} = 'totp' and ${table.totpSecret} is not null) or (${table.kind} = 'passkey' and ${table.credentialId} is not null and ${table.publicKey} is not null)`,
    ),
  ],
);
