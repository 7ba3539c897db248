import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { eq, sql } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { loginFailures } from '../schema/login-failures.table.js';
import { LOCKOUT_OPTIONS, type LockoutOptions } from './lockout.options.js';

@Injectable()
export class LockoutService {
  constructor(
    @InjectAuthDb() private readonly db: Database,
    @Inject(LOCKOUT_OPTIONS) private readonly options: LockoutOptions,
  ) {}

  async isLocked(ipAddress: string): Promise<boolean> {
    const [row] = await this.db.select().from(loginFailures).where(eq(loginFailures.ipAddress, ipAddress));
    return !!row?.lockedUntil && row.lockedUntil.getTime() > Date.now();
  }

  /**
   * Counts one more failure in a single statement (concurrent guesses cannot
   * slip under the limit); a streak older than the lockout period starts over.
   * Returns true when this failure locked the address.
   */
  async recordFailure(ipAddress: string): Promise<boolean> {
    const { maxFailures, lockoutSeconds } = this.options;
    const period = sql.raw(`interval '${Math.floor(lockoutSeconds)} seconds'`);
    const [row] = await this.db
      .insert(loginFailures)
      .values({ ipAddress, failures: 1, lastFailureAt: new Date(), lockedUntil: maxFailures <= 1 ? sql`now() + ${period}` : null })
      .onConflictDoUpdate({
        target: loginFailures.ipAddress,
        set: {
          failures: sql`case when ${loginFailures.lastFailureAt} < now() - ${period} then 1 else ${loginFailures.failures} + 1 end`,
          lastFailureAt: sql`now()`,
          lockedUntil: sql`case when (case when ${loginFailures.lastFailureAt} < now() - ${period} then 1 else ${loginFailures.failures} + 1 end) >= ${maxFailures} then now() + ${period} else null end`,
        },
      })
      .returning();
    return !!row.lockedUntil;
  }

  async clear(ipAddress: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.ipAddress, ipAddress));
  }
}
