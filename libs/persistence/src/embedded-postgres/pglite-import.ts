import pg from 'pg';
import { openPglite } from '../pglite.js';
import type { ServiceMigrations } from '../service-migrator.js';
import { clusterPaths, ensureDatabase, initCluster } from './cluster.js';
import { copyPglite, type ImportSummary } from './pglite-copy.js';
import type { RunAs } from './privileges.js';
import { PostgresServer } from './server.js';
import { DATABASE } from './settings.js';

/**
 * A vault from before ADR 0009 kept its rows in PGlite files
 * (VAULT_DATA_DIR/pg). They are copied into a new cluster made in the
 * partial folder (VAULT_DATA_DIR/postgres.new-<pid>), with a server of its own
 * that is stopped afterwards; the caller then renames it into place. The
 * PGlite folder is only read: interrupted anywhere, the next start finds it
 * as it was, discards the partial folder and does it all again.
 */
export async function importPglite(dataDir: string, runAs: RunAs, services: ServiceMigrations[]): Promise<ImportSummary> {
  const paths = clusterPaths(dataDir);
  await initCluster(paths.partial, runAs);
  const server = await PostgresServer.start(paths.partial, runAs, { whenReady: ensureDatabase });
  try {
    const target = new pg.Client(server.clientConfig(DATABASE));
    await target.connect();
    try {
      const lite = await openPglite(paths.pglite);
      try {
        return await copyPglite(lite, target, services);
      } finally {
        await lite.close();
      }
    } finally {
      await target.end();
    }
  } finally {
    await server.stop();
  }
}
