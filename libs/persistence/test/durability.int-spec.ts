import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openEmbeddedDatabase } from '../src/index.js';
import { childrenOf, countSyncCalls } from './strace.js';

const COMMITS = 200;

/**
 * Issue 14: every write the embedded vault acknowledges is on disk. PGlite
 * (the embedded database before ADR 0009) made 0 fsync/fdatasync calls for
 * these 200 commits, fsync=on or not (Emscripten's NODEFS has no fsync);
 * PostgreSQL flushes its WAL once per commit.
 */
describe('the embedded database: every acknowledged write is on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-durable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`flushes each of ${COMMITS} committed inserts (strace counts the fsync and fdatasync calls of the server)`, async () => {
    const database = await openEmbeddedDatabase({ dataDir: dir });
    const client = new pg.Client(database.clientConfig());
    try {
      await client.connect();
      await client.query('create table t (id int primary key, v text)');
      // The postmaster and its processes (walwriter, checkpointer...), and with -f every backend forked while traced.
      const calls = await countSyncCalls(
        [database.pid, ...childrenOf(database.pid)],
        async () => {
          const traced = new pg.Client(database.clientConfig());
          await traced.connect();
          for (let i = 0; i < COMMITS; i++) await traced.query('insert into t values ($1, $2)', [i, `row ${i}`]);
          await traced.end();
        },
        join(dir, 'strace.txt'),
      );
      process.stdout.write(`embedded PostgreSQL, ${COMMITS} commits: ${JSON.stringify(calls)}\n`);
      expect(calls.fsync + calls.fdatasync).toBeGreaterThanOrEqual(COMMITS);
      expect(Number((await client.query('select count(*) from t')).rows[0].count)).toBe(COMMITS);
    } finally {
      await client.end();
      await database.release();
    }
  });
});
