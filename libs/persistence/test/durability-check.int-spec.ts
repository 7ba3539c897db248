import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import pg from 'pg';
import { durabilityProblems } from '../src/index.js';

/** Issue 14: the distributed mode relies on its server's own fsync and synchronous commit, and says so when they are off. */
describe("a PostgreSQL server's durability settings", () => {
  let db: TestDatabase;
  const pools: pg.Pool[] = [];
  const poolWith = (options?: string) => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1, options });
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await db?.drop();
  });

  it('passes a session that commits synchronously, and names fsync exactly when the server has it off', async () => {
    const pool = poolWith('-c synchronous_commit=on');
    // The machine's test server flushes; the testcontainers one runs with fsync=off for speed.
    const { fsync } = (await pool.query<{ fsync: string }>('show fsync')).rows[0];
    expect(await durabilityProblems(pool)).toEqual(fsync === 'on' ? [] : ['fsync is off: a power cut can lose acknowledged writes']);
  });

  it('names synchronous_commit=off', async () => {
    const problems = await durabilityProblems(poolWith('-c synchronous_commit=off'));
    expect(problems).toContain('synchronous_commit is off: a crash can lose the latest acknowledged writes');
  });
});
