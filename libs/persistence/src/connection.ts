import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Where the rows live: PGlite files for the embedded mode, a PostgreSQL
 * server for the distributed one. Both speak the same SQL, so one set of
 * migrations serves both.
 */
export type ConnectionOptions =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; url: string; poolSize?: number };

export type Connection =
  | { kind: 'pglite'; client: PGlite; close(): Promise<void>; ping(): Promise<void> }
  | { kind: 'postgres'; pool: pg.Pool; close(): Promise<void>; ping(): Promise<void> };

/**
 * PostgreSQL's defaults size shared memory for a server of 100 connections
 * with 128 MB of buffers; PGlite runs one single-user backend inside this
 * process, and its WASM memory stays resident. 16 MB of buffers hold a vault
 * of tens of thousands of rows (the files stay in the OS page cache as well)
 * and keep the idle process small (docs/performance.md).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=5'];

export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  if (options.kind === 'pglite') {
    // Owner-only: the files are the owner's private life.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const client = await PGlite.create(options.dataDir, {
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
    });
    return {
      kind: 'pglite',
      client,
      close: () => client.close(),
      ping: async () => {
        await client.query('select 1');
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // A dead server must surface as a prompt error, not a hung request.
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server is reported here; without a listener it would crash the process.
  pool.on('error', () => undefined);
  return {
    kind: 'postgres',
    pool,
    close: () => pool.end(),
    ping: async () => {
      await pool.query('select 1');
    },
  };
}
