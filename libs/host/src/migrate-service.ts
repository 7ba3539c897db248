import { applyMigrations, openConnection, type Connection, type ServiceMigrations } from '@vault/persistence';
import { processLogger } from './nest-logger.js';
import { databaseUrlFor, type ServiceName, type VaultConfig } from './vault-config.js';

/** A one-off task on a service's own database (a deploy or operator job): one connection, closed after. */
export async function withServiceConnection<T>(config: VaultConfig, name: ServiceName, task: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await openConnection({ kind: 'postgres', url: databaseUrlFor(config, name), poolSize: 1 });
  try {
    return await task(connection);
  } finally {
    await connection.close();
  }
}

/**
 * `node dist/main.js migrate`: applies one service's pending migrations and
 * exits, so a deploy job can migrate before the new version serves (the
 * services then run with VAULT_SKIP_MIGRATIONS=true). The advisory lock of
 * applyMigrations keeps a job and a starting replica from migrating twice.
 */
export async function migrateService(config: VaultConfig, name: ServiceName, migrations: ServiceMigrations): Promise<void> {
  const { logger } = processLogger(`${name}-svc`, config.LOG_LEVEL);
  await withServiceConnection(config, name, (connection) => applyMigrations(connection, migrations));
  logger.info({ schema: migrations.schema }, `${name}-svc migrations applied`);
}
