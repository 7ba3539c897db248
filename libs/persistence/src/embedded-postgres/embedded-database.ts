import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import type { ServiceMigrations } from '../service-migrator.js';
import { clusterPaths, durableRename, ensureDatabase, initCluster, leftoverPartials } from './cluster.js';
import { clearStalePostmaster } from './postmaster.js';
import { detectRunAs, type RunAs } from './privileges.js';
import { PostgresServer } from './server.js';
import { DATABASE } from './settings.js';

export interface EmbeddedDatabaseOptions {
  /** VAULT_DATA_DIR. The cluster lives in its `postgres` folder. */
  dataDir: string;
  /**
   * Every service's migrations: what importing a PGlite folder (`pg`, a
   * vault before ADR 0009) needs. Without them such a folder is refused,
   * never silently left behind an empty database.
   */
  pgliteImport?: ServiceMigrations[];
  /** Tests only: force a way of dropping root instead of detecting it. */
  runAs?: RunAs;
  /** Where the one-off events go (cluster made, PGlite imported). */
  log?: (message: string) => void;
  /**
   * Called once the start no longer needs this process's thread for a while:
   * the server's process spawned (it boots on its own), or a cluster's
   * initdb. apps/vault's early start loads the vault's code only then.
   */
  underway?: () => void;
}

/** A hold on the server of one data folder; the server stops when the last hold is released. */
export interface EmbeddedDatabase {
  /** PostgreSQL's data folder, which also holds its socket. */
  readonly pgdata: string;
  /** The postmaster's pid. */
  readonly pid: number;
  /** node-postgres's settings for a database of it (default: the vault's). */
  clientConfig(database?: string): pg.ClientConfig;
  release(): Promise<void>;
}

interface Entry {
  server: Promise<PostgresServer>;
  holds: number;
}

/** One server per data folder per process, shared by whoever opens it (the five services of the embedded vault). */
const running = new Map<string, Entry>();
const stopping = new Map<string, Promise<void>>();

/**
 * Starts (or joins) the embedded PostgreSQL server of a data folder: makes
 * the cluster on the first start, imports a PGlite folder once, stops a
 * stale postmaster left by a killed vault, and refuses a folder whose server
 * belongs to another live process (EmbeddedDatabaseInUseError).
 */
export async function openEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  let entry = running.get(dataDir);
  if (!entry) {
    const server = (async () => {
      await stopping.get(dataDir);
      return startServer(dataDir, options);
    })();
    const created: Entry = { server, holds: 0 };
    server.catch(() => {
      if (running.get(dataDir) === created) running.delete(dataDir);
    });
    running.set(dataDir, created);
    entry = created;
  }
  const held = entry;
  held.holds++;
  let server: PostgresServer;
  try {
    server = await held.server;
  } catch (error) {
    held.holds--;
    throw error;
  }
  let released = false;
  return {
    pgdata: server.pgdata,
    pid: server.pid,
    clientConfig: (database = DATABASE) => server.clientConfig(database),
    release: async () => {
      if (released) return;
      released = true;
      if (--held.holds > 0) return;
      if (running.get(dataDir) === held) running.delete(dataDir);
      const stop = server.stop();
      stopping.set(dataDir, stop);
      await stop;
      if (stopping.get(dataDir) === stop) stopping.delete(dataDir);
    },
  };
}

async function startServer(dataDir: string, options: EmbeddedDatabaseOptions): Promise<PostgresServer> {
  const log = options.log ?? (() => undefined);
  const runAs = options.runAs ?? detectRunAs();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const paths = clusterPaths(dataDir);
  if (!existsSync(join(paths.cluster, 'PG_VERSION'))) {
    if (existsSync(paths.cluster)) throw new Error(`${paths.cluster} is not a PostgreSQL data folder (no PG_VERSION): move it away and start again.`);
    for (const leftover of leftoverPartials(dataDir)) {
      // Left by a start that was cut short: its server stopped (refused if another live process is importing there), then removed.
      await clearStalePostmaster(leftover);
      try {
        rmSync(leftover, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // Still being emptied by its killed initdb, say: this start makes its own folder; the next one removes it.
      }
    }
    if (existsSync(paths.pglite)) {
      if (!options.pgliteImport) {
        throw new Error(
          `${paths.pglite} holds a vault's PGlite database (before ADR 0009) that this program cannot import: start the vault itself (npm start) once.`,
        );
      }
      log(`Importing the PGlite database ${paths.pglite} into PostgreSQL (${paths.cluster}), once`);
      const started = Date.now();
      // Loaded only for an import: it brings the migrator and PGlite, which a normal start never needs.
      const { importPglite } = await import('./pglite-import.js');
      const summary = await importPglite(dataDir, runAs, options.pgliteImport);
      putInPlace(paths.partial, paths.cluster);
      log(
        `Imported ${summary.rows} rows of ${summary.tables} tables and ${summary.sequences} sequences in ${Date.now() - started} ms; every table's rows checked`,
      );
    } else {
      options.underway?.();
      await initCluster(paths.partial, runAs);
      putInPlace(paths.partial, paths.cluster);
      log(`Created the embedded PostgreSQL cluster in ${paths.cluster}`);
    }
  }
  if (existsSync(paths.pglite)) {
    // The import completed (the cluster exists), so the PGlite folder is kept aside, never deleted.
    const backup = freeName(paths.pgliteBackup);
    durableRename(paths.pglite, backup);
    log(`The PGlite files are kept in ${backup}; delete them once the vault is known to be complete`);
  }
  return PostgresServer.start(paths.cluster, runAs, { spawned: options.underway, whenReady: ensureDatabase });
}

/** The complete cluster renamed into place; should another process have put its own there meanwhile, that one is kept. */
function putInPlace(partial: string, cluster: string): void {
  try {
    durableRename(partial, cluster);
  } catch (error) {
    if (!existsSync(join(cluster, 'PG_VERSION'))) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
}

function freeName(path: string): string {
  if (!existsSync(path)) return path;
  for (let n = 2; ; n++) if (!existsSync(`${path}-${n}`)) return `${path}-${n}`;
}
