import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { loginFailures } from '../schema/login-failures.table.js';
import { LOCKOUT_OPTIONS, type LockoutOptions } from './lockout.options.js';

export const LOCKED = 'Account locked after repeated failed sign-ins. Try again later.';

/** A sign-in attempt's place in its address's streak, or a refusal: the address is locked out. */
export type SignInClaim = { judged: true; position: number } | { judged: false };

/**
 * The per-address lockout. Every attempt claims its place in the streak in
 * one statement BEFORE its password is hashed, so parallel attempts cannot
 * all pass the check before any failure is counted: only the first
 * `maxFailures` places of a streak are ever judged, and a claim beyond them
 * locks the address at once.
 */
@Injectable()
export class LockoutService {
  constructor(
    @InjectAuthDb() private readonly db: Database,
    @Inject(LOCKOUT_OPTIONS) private readonly options: LockoutOptions,
  ) {}

  async claim(ipAddress: string): Promise<SignInClaim> {
    const { maxFailures } = this.options;
    const period = this.period();
    // A streak ends when its last attempt is older than the lockout period, or when its lockout has run out.
    const streakOver = sql`(${loginFailures.lastFailureAt} < now() - ${period} or ${loginFailures.lockedUntil} <= now())`;
    const position = sql`case when ${streakOver} then 1 else ${loginFailures.failures} + 1 end`;
    const [row] = await this.db
      .insert(loginFailures)
      .values({ ipAddress, failures: 1, lastFailureAt: sql`now()`, lockedUntil: null })
      .onConflictDoUpdate({
        target: loginFailures.ipAddress,
        set: {
          failures: position,
          lastFailureAt: sql`now()`,
          lockedUntil: sql`case when ${loginFailures.lockedUntil} > now() then ${loginFailures.lockedUntil} when ${position} > ${maxFailures} then now() + ${period} else null end`,
        },
      })
      .returning({ failures: loginFailures.failures, locked: sql<boolean>`coalesce(${loginFailures.lockedUntil} > now(), false)` });
    return row.locked ? { judged: false } : { judged: true, position: row.failures };
  }

  /** A wrong password at `position`: the last place a streak may judge locks the address. Returns true when locked. */
  async recordFailure(ipAddress: string, position: number): Promise<boolean> {
    if (position < this.options.maxFailures) return false;
    await this.db
      .update(loginFailures)
      .set({ lockedUntil: sql`greatest(coalesce(${loginFailures.lockedUntil}, now()), now() + ${this.period()})` })
      .where(eq(loginFailures.ipAddress, ipAddress));
    return true;
  }

  /**
   * The right password at `position` ends the streak, when no other attempt
   * was claimed after it. With others in flight (a burst of guesses racing
   * the owner) every place stays counted: a success never reopens places for
   * guesses already made, so a burst never has more than `maxFailures`
   * passwords judged, the right one included.
   */
  async release(ipAddress: string, position: number): Promise<void> {
    await this.db
      .delete(loginFailures)
      .where(
        and(
          eq(loginFailures.ipAddress, ipAddress),
          eq(loginFailures.failures, position),
          or(isNull(loginFailures.lockedUntil), lte(loginFailures.lockedUntil, sql`now()`)),
        ),
      );
  }

  /**
   * The right password when a second factor must follow: the attempt gives
   * its place back (it was no failure), but the streak goes on, so wrong
   * codes before and after it add up, and only the factor ends the streak.
   * Otherwise one right password between guesses would reopen every place.
   */
  async unclaim(ipAddress: string, position: number): Promise<void> {
    await this.db
      .update(loginFailures)
      .set({ failures: sql`${loginFailures.failures} - 1` })
      .where(and(eq(loginFailures.ipAddress, ipAddress), eq(loginFailures.failures, position)));
  }

  private period() {
    return sql.raw(`interval '${Math.floor(this.options.lockoutSeconds)} seconds'`);
  }
}
