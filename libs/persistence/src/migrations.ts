import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Connection } from './connection.js';

/** Every service keeps its own migration table here, named after its schema. */
export const MIGRATIONS_SCHEMA = 'vault_migrations';

export interface ServiceMigrations {
  /** The Postgres schema the service owns, e.g. `planner`. */
  schema: string;
  /** The folder drizzle-kit generated for that service. */
  folder: string;
}

/**
 * Applies a service's pending migrations. On PostgreSQL it holds an advisory
 * lock so that replicas starting together apply them once. The lock is one
 * for all services, not one each: services sharing a database would
 * otherwise race to create the shared migrations schema.
 */
export async function applyMigrations(connection: Connection, migrations: ServiceMigrations): Promise<void> {
  const config = { migrationsFolder: migrations.folder, migrationsSchema: MIGRATIONS_SCHEMA, migrationsTable: migrations.schema };
  if (connection.kind === 'pglite') {
    await migratePglite(drizzlePglite({ client: connection.client }), config);
    return;
  }
  const client = await connection.pool.connect();
  const lockKey = 'vault:migrate';
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [lockKey]);
    await migratePg(drizzlePg({ client }), config);
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
    client.release();
  }
}
