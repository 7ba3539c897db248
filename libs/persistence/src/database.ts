import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Connection } from './connection.js';

/** The query API a repository uses; identical over PGlite and node-postgres. */
export type Database = PgDatabase<PgQueryResultHKT>;

export function drizzleFor(connection: Connection): Database {
  return connection.kind === 'pglite'
    ? (drizzlePglite({ client: connection.client }) as unknown as Database)
    : (drizzlePg({ client: connection.pool }) as unknown as Database);
}
