import { customType, pgSchema } from 'drizzle-orm/pg-core';

/** Everything journal-svc owns lives in this Postgres schema; no other service reads it. */
export const journalSchema = pgSchema('journal');

/** Raw bytes; PGlite hands back a Uint8Array where node-postgres hands back a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
