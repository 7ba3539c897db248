import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Connection } from './connection.js';
import type { Database } from './database.js';
import { migrationsApplied, runServiceMigrations, type MigrationOptions, type ServiceMigrations } from './service-migrator.js';

export { MIGRATIONS_SCHEMA, type MigrationOptions, type ServiceMigrations } from './service-migrator.js';

/**
 * The advisory lock every migration, and the roles' provisioning, takes. One
 * for all services, not one each: services sharing a database would
 * otherwise race to create the shared migrations schema.
 */
export const MIGRATION_LOCK = 'vault:migrate';

/**
 * Applies a service's pending migrations. On PostgreSQL it holds an advisory
 * lock so that replicas starting together apply them once.
 */
export async function applyMigrations(connection: Connection, migrations: ServiceMigrations, options: MigrationOptions = {}): Promise<void> {
  if (connection.kind === 'pglite') {
    await runServiceMigrations(connection.db, migrations, options);
    return;
  }
  const client = await connection.pool.connect();
  try {
    const db = drizzlePg({ client }) as unknown as Database;
    // Most starts have nothing to apply: seen so without the lock, they need not queue for it.
    if (await migrationsApplied(db, migrations, options).catch(() => false)) return;
    await client.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    try {
      await runServiceMigrations(db, migrations, options);
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
