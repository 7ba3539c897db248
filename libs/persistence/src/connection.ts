import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './database.js';
import { openEmbeddedDatabase, type EmbeddedDatabaseOptions } from './embedded-postgres/index.js';
import { openPglite } from './pglite.js';

export { PGLITE_SETTINGS } from './pglite.js';

/**
 * Where the rows live: the embedded mode's own PostgreSQL server on a data
 * folder (docs/adr/0009-embedded-postgresql.md), or a PostgreSQL server of
 * the distributed mode. `pglite` opens a PGlite folder, the embedded mode's
 * database before ADR 0009, which the embedded server imports once.
 */
export type ConnectionOptions =
  | ({ kind: 'embedded'; poolSize?: number } & EmbeddedDatabaseOptions)
  | { kind: 'pglite'; dataDir: string }
  | {
      kind: 'postgres';
      url: string;
      /** The most connections the pool opens (a replica's share of the server's max_connections: docs/deploy.md). */
      poolSize?: number;
      /** Connections the pool keeps open however idle: a replica's first requests then open none. */
      keepOpen?: number;
      /**
       * How long a query waits for a connection (a free one of the pool, or a new one) before it
       * fails as an outage (503). 2 s by default: a dead server surfaces as a prompt error, not a hung request.
       */
      connectionWaitMs?: number;
    };

export type Connection =
  | { kind: 'pglite'; client: PGlite; db: Database; close(): Promise<void>; ping(): Promise<void> }
  | { kind: 'postgres'; pool: pg.Pool; close(): Promise<void>; ping(): Promise<void> };

/** The embedded vault's pool: five services in one process, one owner; each idle connection is a backend process. */
export const EMBEDDED_POOL_SIZE = 4;
/** How long a connection of the embedded pool stays open unused. */
export const EMBEDDED_IDLE_MS = 5_000;

export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  if (options.kind === 'pglite') {
    const client = await openPglite(options.dataDir);
    // Loaded here, not at the top: a process that never opens PGlite never loads it (drizzle-orm/pglite imports it).
    const { drizzle } = await import('drizzle-orm/pglite');
    return {
      kind: 'pglite',
      client,
      db: drizzle({ client }) as unknown as Database,
      close: () => client.close(),
      ping: async () => {
        await client.query('select 1');
      },
    };
  }
  if (options.kind === 'embedded') {
    const database = await openEmbeddedDatabase(options);
    // Over the socket; a slot of the small pool may be waited for longer than a remote server's connect.
    const pool = poolOf({
      ...database.clientConfig(),
      max: options.poolSize ?? EMBEDDED_POOL_SIZE,
      connectionTimeoutMillis: 10_000,
      // An idle vault keeps no backend open (each is about 13 MB resident); a new one over the socket takes a few ms.
      idleTimeoutMillis: EMBEDDED_IDLE_MS,
    });
    return {
      kind: 'postgres',
      pool,
      close: async () => {
        await pool.end().catch(() => undefined);
        await database.release();
      },
      ping: async () => {
        await pool.query('select 1');
      },
    };
  }
  const pool = poolOf({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    min: options.keepOpen ?? 0,
    connectionTimeoutMillis: options.connectionWaitMs ?? 2000,
  });
  return {
    kind: 'postgres',
    pool,
    close: () => pool.end(),
    ping: async () => {
      await pool.query('select 1');
    },
  };
}

function poolOf(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ idleTimeoutMillis: 30_000, ...config });
  // An idle client losing its server is reported here; without a listener it would crash the process.
  pool.on('error', () => undefined);
  return pool;
}
