import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { postgresBinaries } from './binaries.js';
import { guardPrefix } from './guard.js';
import { asPostgresUser, assertRunnable, giveToPostgresUser, type RunAs } from './privileges.js';
import { DATABASE, INITDB_OPTIONS } from './settings.js';

const PARTIAL_PREFIX = 'postgres.new-';

/** Partial clusters left by starts that were cut short (any process's). */
export function leftoverPartials(dataDir: string): string[] {
  return readdirSync(dataDir)
    .filter((name) => name.startsWith(PARTIAL_PREFIX))
    .map((name) => join(dataDir, name));
}

/** VAULT_DATA_DIR when it is not set: `data` under the working folder. */
export const DEFAULT_DATA_DIR = './data';

/** Where the embedded mode keeps its database, under VAULT_DATA_DIR. */
export function clusterPaths(dataDir: string) {
  return {
    /** PostgreSQL's data folder (PGDATA), with its socket and log. */
    cluster: join(dataDir, 'postgres'),
    /**
     * A cluster being made by this process (initdb, or the PGlite import),
     * renamed to `cluster` only once complete. Named per process: an initdb
     * killed with its vault may still be removing its own folder while the
     * next start makes a new one.
     */
    partial: join(dataDir, `${PARTIAL_PREFIX}${process.pid}`),
    /** The PGlite files of vaults before ADR 0009. */
    pglite: join(dataDir, 'pg'),
    /** Where they go once imported; kept until the owner deletes them. */
    pgliteBackup: join(dataDir, 'pg.pglite-backup'),
  };
}

/** initdb into an empty folder (made 0700); initdb flushes what it wrote before it returns. */
export async function initCluster(pgdata: string, runAs: RunAs): Promise<void> {
  const { initdb } = postgresBinaries();
  assertRunnable(runAs, initdb);
  mkdirSync(pgdata, { mode: 0o700 });
  giveToPostgresUser(runAs, pgdata);
  const [command, ...args] = asPostgresUser(runAs, [...guardPrefix(), initdb, '-D', pgdata, ...INITDB_OPTIONS]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (status) => resolve(status));
  });
  if (code !== 0) throw new Error(`initdb failed for the embedded database (${pgdata}):\n${output.trim()}`);
}

/** The vault's database, made when missing (a first start, or one cut short right after initdb). */
export async function ensureDatabase(client: pg.Client): Promise<void> {
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (!rowCount) await client.query(`create database "${DATABASE}"`);
}

/** rename(2), then the parent folder flushed so that the new name survives a power cut. */
export function durableRename(from: string, to: string): void {
  renameSync(from, to);
  const fd = openSync(dirname(to), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
