import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/**
 * Per client address: the sign-in attempts of the current streak (`failures`:
 * each attempt is counted when it starts, and a success removes the places up
 * to its own), when the last one started, and the lockout they earned.
 * Keyed by address rather than account: a stranger's guesses lock the
 * stranger out, not the owner (the vault has a single account).
 */
export const loginFailures = authSchema.table('login_failures', {
  ipAddress: text('ip_address').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
