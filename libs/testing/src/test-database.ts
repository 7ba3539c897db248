import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testServers } from './servers.js';

export interface TestDatabase {
  url: string;
  name: string;
  /** Rows of a query, for assertions that look behind the API. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh database per spec file, so specs never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = testServers().databaseUrl;
  const name = `vault_it_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // pool.end() does not wait for the server to see its clients leave: the forced drop below may
  // terminate one that is still closing, and that error is expected, not the spec's failure.
  pool.on('error', () => undefined);
  return {
    url: url.toString(),
    name,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    drop: async () => {
      await pool.end();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
