import { sql } from 'drizzle-orm';
import { check, numeric, smallint } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

/**
 * The balance: one row, never below zero, exact to the cent. numeric(12, 2)
 * rather than integer cents: the column keeps its name and its meaning, so
 * the previous version still reads and writes it during a rolling upgrade,
 * and PostgreSQL does the exact decimal arithmetic. 12 digits hold the
 * 1,000,000,000.00 it starts at (it only goes down). The row is created by a
 * migration, so a subtraction is always a single guarded UPDATE.
 */
export const balance = plannerSchema.table(
  'balance',
  {
    id: smallint('id').primaryKey().default(1),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
  },
  (table) => [check('balance_single_row', sql`${table.id} = 1`), check('balance_not_negative', sql`${table.amount} >= 0`)],
);
