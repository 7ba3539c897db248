import { sql } from 'drizzle-orm';
import { boolean, check, smallint, timestamp } from 'drizzle-orm/pg-core';
import { authSchema } from './auth.schema.js';

/** Whether the vault is public or destroyed. A single row; absent means neither. */
export const vaultState = authSchema.table(
  'vault_state',
  {
    id: smallint('id').primaryKey().default(1),
    destroyed: boolean('destroyed').notNull().default(false),
    globalAccess: boolean('global_access').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('vault_state_single_row', sql`${table.id} = 1`)],
);
