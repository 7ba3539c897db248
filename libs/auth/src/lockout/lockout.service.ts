import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { RpcFailure } from '@vault/transport';
import { and, eq, sql } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { loginFailures } from '../schema/login-failures.table.js';
import { LOCKOUT_OPTIONS, type LockoutOptions } from './lockout.options.js';

export const LOCKED = 'Account locked after repeated failed sign-ins. Try again later.';
export const BUSY = 'Too many sign-in attempts at once from this address. Try again in a moment.';

/**
 * Whether a sign-in attempt may be judged, with the streak's failures when it
 * was claimed; refused while its address is locked out, or while its place
 * would exceed the lock's.
 */
export type SignInClaim = { judged: true; failuresBefore: number } | { judged: false; reason: 'locked' | 'busy' };

/** What an attempt refused unjudged answers: 423 while the address is locked, 429 while its places are all being judged. */
export function refusalOf(claim: Extract<SignInClaim, { judged: false }>): RpcFailure {
  return claim.reason === 'locked' ? new RpcFailure(423, LOCKED) : new RpcFailure(429, BUSY);
}

/** An attempt never takes this long (the gateway gives up after its RPC deadline): a place held longer was left by a crash. */
const IN_FLIGHT_EXPIRY = sql.raw(`interval '60 seconds'`);
/**
 * Wrong passwords this recent may belong to the burst a right password is
 * part of: it does not end them, or guesses racing the owner's sign-in would
 * have the lock's number judged before it and again after it.
 */
const SAME_BURST = sql.raw(`interval '60 seconds'`);
/**
 * How long an attempt waits for a place while others from its address are
 * being judged (within VerifyOwner's deadline), and how often the first of
 * this process's waiters looks again when no attempt of this process wakes
 * it (another replica judged them).
 */
const WAIT_FOR_PLACE_MS = 3_000;
const LOOK_AGAIN_MS = 100;

/** An address's waiting attempts in this process, first come first woken, and the timer that has the first look again. */
interface Waiters {
  queue: Array<() => void>;
  lookAgain: NodeJS.Timeout;
}

/**
 * The per-address lockout (OWASP: lock after repeated failures, count only
 * failures). Every attempt claims a place BEFORE its password is hashed, so
 * parallel attempts cannot all pass the check before any failure is counted:
 * an attempt is judged only while the streak's failures plus the attempts in
 * flight stay under the threshold, so at most `maxFailures` wrong passwords
 * are ever judged before the lock, however many arrive at once. A right
 * password only gives its place back and ends the streak of failures older
 * than a burst, so overlapping correct sign-ins (a phone, a laptop and the
 * installed app behind one home router) never add up to a lock.
 *
 * Each step is one statement, so an address's row is locked only while the
 * server runs it, never across a round trip: fifty attempts at once over a
 * slow network do not queue for the row while holding the pool's connections.
 */
@Injectable()
export class LockoutService {
  constructor(
    @InjectAuthDb() private readonly db: Database,
    @Inject(LOCKOUT_OPTIONS) private readonly options: LockoutOptions,
  ) {}

  private readonly waiting = new Map<string, Waiters>();

  /** A place for this attempt, waiting briefly while the places are held by attempts being judged. */
  async claimInTurn(ipAddress: string): Promise<SignInClaim> {
    const deadline = Date.now() + WAIT_FOR_PLACE_MS;
    for (;;) {
      const claim = await this.claim(ipAddress);
      if (claim.judged || claim.reason === 'locked') return claim;
      const left = deadline - Date.now();
      // Given up without one more look: the waiters of a burst all reach their deadline at once.
      if (left <= 0 || !(await this.placeFreed(ipAddress, left))) return claim;
    }
  }

  /**
   * True when an attempt of this process gave a place back (or it is this
   * waiter's turn to look again), false after `ms`. Only the first waiter
   * looks on its own, so a burst's waiters do not each query the database
   * every 100 ms.
   */
  private placeFreed(ipAddress: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      let waiters = this.waiting.get(ipAddress);
      if (!waiters) {
        const lookAgain = setInterval(() => this.wake(ipAddress, false), LOOK_AGAIN_MS);
        waiters = { queue: [], lookAgain };
        this.waiting.set(ipAddress, waiters);
      }
      const { queue } = waiters;
      const leave = (woken: boolean) => {
        clearTimeout(timer);
        const at = queue.indexOf(wake);
        if (at !== -1) queue.splice(at, 1);
        if (queue.length === 0 && this.waiting.get(ipAddress) === waiters) {
          clearInterval(waiters.lookAgain);
          this.waiting.delete(ipAddress);
        }
        resolve(woken);
      };
      const wake = () => leave(true);
      const timer = setTimeout(() => leave(false), ms);
      queue.push(wake);
    });
  }

  /** One waiter per place given back; all of them when the address is locked, as none will be judged. */
  private wake(ipAddress: string, all: boolean) {
    const waiters = this.waiting.get(ipAddress);
    if (!waiters) return;
    for (const wake of all ? [...waiters.queue] : waiters.queue.slice(0, 1)) wake();
  }

  /** One try for a place: a conditional update of the address's row, which a new address first gets. */
  async claim(ipAddress: string): Promise<SignInClaim> {
    for (let tries = 0; tries < 3; tries++) {
      const [taken] = await this.db
        .update(loginFailures)
        .set({ failures: this.streak(), inFlight: sql`${this.inFlight()} + 1`, lastFailureAt: sql`now()`, lockedUntil: null })
        .where(and(eq(loginFailures.ipAddress, ipAddress), sql`not ${this.locked()}`, sql`${this.streak()} + ${this.inFlight()} < ${this.options.maxFailures}`))
        .returning({ failuresBefore: loginFailures.failures });
      if (taken) return { judged: true, failuresBefore: taken.failuresBefore };
      const [refused] = await this.db
        .select({ locked: this.locked(), full: sql<boolean>`${this.streak()} + ${this.inFlight()} >= ${this.options.maxFailures}` })
        .from(loginFailures)
        .where(eq(loginFailures.ipAddress, ipAddress));
      if (refused?.locked) return { judged: false, reason: 'locked' };
      if (refused?.full) return { judged: false, reason: 'busy' };
      // Claimed again when a place came free since, and for a new address (or one a right password just forgot) once it has its row.
      if (!refused)
        await this.db.insert(loginFailures).values({ ipAddress, failures: 0, inFlight: 0, lastFailureAt: sql`now()`, lockedUntil: null }).onConflictDoNothing();
    }
    // The places changed hands between each look: the address is busy.
    return { judged: false, reason: 'busy' };
  }

  /** The streak's failures: it ends when its last attempt is older than the lockout period, or when its lockout has run out. */
  private streak() {
    return sql<number>`case when ${loginFailures.lastFailureAt} < now() - ${this.period()} or ${loginFailures.lockedUntil} <= now() then 0 else ${loginFailures.failures} end`;
  }

  /** The attempts being judged, none once the last one started longer ago than any attempt takes. */
  private inFlight() {
    return sql<number>`case when ${loginFailures.lastFailureAt} < now() - ${IN_FLIGHT_EXPIRY} then 0 else ${loginFailures.inFlight} end`;
  }

  private locked() {
    return sql<boolean>`coalesce(${loginFailures.lockedUntil} > now(), false)`;
  }

  /**
   * Judges a claimed attempt; when judging fails (its database, a broken
   * passkey) the place is given back, or the address would stay busy until
   * the places expire.
   */
  async judge<T>(ipAddress: string, judgement: () => Promise<T>): Promise<T> {
    try {
      return await judgement();
    } catch (error) {
      await this.unclaim(ipAddress).catch(() => undefined);
      throw error;
    }
  }

  /** A wrong password or code: it counts, and the threshold's failure locks the address. Returns true when locked. */
  async recordFailure(ipAddress: string): Promise<boolean> {
    const [row] = await this.db
      .update(loginFailures)
      .set({
        failures: sql`${loginFailures.failures} + 1`,
        inFlight: sql`greatest(${loginFailures.inFlight} - 1, 0)`,
        lastWrongAt: sql`now()`,
        lockedUntil: sql`case when ${loginFailures.failures} + 1 >= ${this.options.maxFailures} then greatest(coalesce(${loginFailures.lockedUntil}, now()), now() + ${this.period()}) else ${loginFailures.lockedUntil} end`,
      })
      .where(eq(loginFailures.ipAddress, ipAddress))
      .returning({ locked: this.locked() });
    const locked = row?.locked ?? false;
    this.wake(ipAddress, locked);
    return locked;
  }

  /**
   * The right password (or factor) ends the streak of failures as it stood
   * when the attempt was claimed, unless the last of them is under a minute
   * old: its place is given back, and the failures before it no longer
   * count. Guesses judged beside it or just before it still do, so a burst of
   * guesses racing the owner never gets more than the lock's number of wrong
   * passwords judged. Once nothing else is in flight and no lock runs, the
   * address is forgotten.
   */
  async release(ipAddress: string, claim: Extract<SignInClaim, { judged: true }>): Promise<void> {
    await this.giveBack(ipAddress, claim.failuresBefore);
    await this.db
      .delete(loginFailures)
      .where(
        and(
          eq(loginFailures.ipAddress, ipAddress),
          eq(loginFailures.failures, 0),
          eq(loginFailures.inFlight, 0),
          sql`coalesce(${loginFailures.lockedUntil} <= now(), true)`,
        ),
      );
  }

  /**
   * The right password when a second factor must follow: the attempt gives
   * its place back (it was no failure), but the streak goes on, so wrong
   * codes before and after it add up, and only the factor ends the streak.
   * Otherwise one right password between guesses would reopen every place.
   */
  async unclaim(ipAddress: string): Promise<void> {
    await this.giveBack(ipAddress, 0);
  }

  /** Gives a place back, and takes `failuresEnded` off the streak unless it earned a lock that still runs or its last failure is of the same burst. */
  private async giveBack(ipAddress: string, failuresEnded: number) {
    await this.db
      .update(loginFailures)
      .set({
        inFlight: sql`greatest(${loginFailures.inFlight} - 1, 0)`,
        failures: sql`case when ${loginFailures.lockedUntil} > now() or ${loginFailures.lastWrongAt} > now() - ${SAME_BURST} then ${loginFailures.failures} else greatest(${loginFailures.failures} - ${failuresEnded}, 0) end`,
      })
      .where(eq(loginFailures.ipAddress, ipAddress));
    this.wake(ipAddress, false);
  }

  private period() {
    return sql.raw(`interval '${Math.floor(this.options.lockoutSeconds)} seconds'`);
  }
}
