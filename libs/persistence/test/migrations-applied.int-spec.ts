import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { drizzle } from 'drizzle-orm/node-postgres';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { MIGRATION_LOCK, applyMigrations, openConnection, type Connection, type Database, type ServiceMigrations } from '../src/index.js';
import { migrationsApplied } from '../src/service-migrator.js';

/**
 * A start with nothing to apply does not queue for the migration lock
 * (issue 37): it sees its migrations recorded without the lock, and takes it
 * only when one is pending.
 */

const PLANNER: ServiceMigrations = { schema: 'planner', folder: fileURLToPath(new URL('../../planner/migrations', import.meta.url)) };

/** The planner's migrations and one more, newer than all of them. */
function withOneMore(): ServiceMigrations & { remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'vault-migrations-'));
  cpSync(PLANNER.folder, folder, { recursive: true });
  const journalFile = join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number; when: number; tag: string }> };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1_000, tag: '9999_one_more' });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(join(folder, '9999_one_more.sql'), 'CREATE TABLE "planner"."one_more" ("id" integer);');
  return { schema: 'planner', folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

describe('migrationsApplied and the migration lock', () => {
  let db: TestDatabase;
  let connection: Connection;
  let pool: pg.Pool;
  const drizzleOf = (client: pg.PoolClient | pg.Client) => drizzle({ client }) as unknown as Database;
  const checked = async (migrations: ServiceMigrations) => {
    const client = await pool.connect();
    try {
      return await migrationsApplied(drizzleOf(client), migrations);
    } finally {
      client.release();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    if (connection.kind !== 'postgres') throw new Error('openConnection gave no PostgreSQL pool');
    pool = connection.pool;
  });
  afterAll(async () => {
    await connection.close();
    await db.drop();
  });

  it('says no before the first migration and yes once every one is recorded', async () => {
    expect(await checked(PLANNER)).toBe(false);
    await applyMigrations(connection, PLANNER);
    expect(await checked(PLANNER)).toBe(true);
  });

  it('a start with nothing pending completes while another session holds the lock', async () => {
    await applyMigrations(connection, PLANNER);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
      await applyMigrations(connection, PLANNER);
    } finally {
      await holder.end();
    }
  });

  it('a pending migration waits for the lock, then is applied once', async () => {
    const newer = withOneMore();
    try {
      expect(await checked(newer)).toBe(false);
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      await holder.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
      let applied = false;
      const applying = applyMigrations(connection, newer).then(() => (applied = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(applied).toBe(false);
      await holder.end();
      await applying;
      expect(await checked(newer)).toBe(true);
      const { rows } = await pool.query(`select count(*)::int as n from vault_migrations.planner where created_at = $1`, [
        (JSON.parse(readFileSync(join(newer.folder, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ when: number }> }).entries.at(-1)!.when,
      ]);
      expect(rows[0].n).toBe(1);
    } finally {
      newer.remove();
    }
  });
});
