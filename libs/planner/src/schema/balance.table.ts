import { sql } from 'drizzle-orm';
import { check, numeric, smallint } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

/**
 * The balance: one row, exact decimal, never below zero. The row is created
 * by a migration, so a subtraction is always a single guarded UPDATE.
 */
export const balance = plannerSchema.table(
  'balance',
  {
    id: smallint('id').primaryKey().default(1),
    amount: numeric('amount').notNull(),
  },
  (table) => [check('balance_single_row', sql`${table.id} = 1`), check('balance_not_negative', sql`${table.amount} >= 0`)],
);
