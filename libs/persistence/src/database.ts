import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Connection } from './connection.js';

/** The query API a repository uses; identical over PGlite and node-postgres. */
export type Database = PgDatabase<PgQueryResultHKT>;

export function drizzleFor(connection: Connection): Database {
  return connection.kind === 'pglite' ? connection.db : (drizzlePg({ client: connection.pool }) as unknown as Database);
}
