import { customType, pgSchema } from 'drizzle-orm/pg-core';

/** Everything journal-svc owns lives in this Postgres schema; no other service reads it. */
export const journalSchema = pgSchema('journal');

/** Raw bytes; PGlite hands back a Uint8Array where node-postgres hands back a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A PostgreSQL transaction id (xid8), as text: the transaction that last
 * wrote a row. The search index reads what changed since the oldest
 * transaction still running when it last looked (search/journal-search.service.ts).
 */
export const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
});
