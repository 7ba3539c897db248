import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/**
 * Per client address: the wrong passwords (and codes) of the current streak
 * (`failures`), the attempts being judged right now (`in_flight`: each is
 * counted when it starts, before its password is hashed, and given back when
 * it is judged), when the last judged attempt started, when the last wrong
 * password was judged (`last_wrong_at`: a right password ends only a streak
 * older than a minute), and the lockout the streak earned. Only wrong passwords count toward the lock; attempts in
 * flight only hold a place, so that a burst never has more passwords judged
 * than the lock allows. Keyed by address rather than account: a stranger's
 * guesses lock the stranger out, not the owner (the vault has a single
 * account).
 */
export const loginFailures = authSchema.table('login_failures', {
  ipAddress: text('ip_address').primaryKey(),
  failures: integer('failures').notNull(),
  inFlight: integer('in_flight').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  lastWrongAt: timestamp('last_wrong_at', { withTimezone: true }),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
