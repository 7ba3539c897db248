import { Injectable } from '@nestjs/common';
import { INITIAL_BALANCE } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { and, eq, gte, sql } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { balance } from '../schema/balance.table.js';
import { exactDecimal } from './exact-decimal.js';

/**
 * The balance, kept exact: numeric(12, 2) in the database, decimal text in
 * between, a number only in the answer (a 2-decimal number of 12 digits reads
 * back as exactly the decimal it stands for).
 */
@Injectable()
export class BalanceRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  async read(): Promise<number> {
    const [row] = await this.db.select({ amount: balance.amount }).from(balance).where(eq(balance.id, 1));
    return row ? Number(row.amount) : INITIAL_BALANCE;
  }

  /**
   * One guarded UPDATE: the row lock makes concurrent subtractions queue, and
   * the guard refuses any that would go below zero. Undefined when refused.
   * `amount` has passed the contract: at most 2 decimal places, so the
   * subtraction is exact and the column's scale never rounds it.
   */
  async subtract(amount: number): Promise<number | undefined> {
    const value = exactDecimal(amount);
    // The row is gone after a self-destruct; a vault started again begins at the initial balance.
    await this.db
      .insert(balance)
      .values({ id: 1, amount: String(INITIAL_BALANCE) })
      .onConflictDoNothing({ target: balance.id });
    const [row] = await this.db
      .update(balance)
      .set({ amount: sql`${balance.amount} - ${value}::numeric` })
      .where(and(eq(balance.id, 1), gte(balance.amount, value)))
      .returning({ amount: balance.amount });
    return row ? Number(row.amount) : undefined;
  }
}
