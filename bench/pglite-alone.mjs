#!/usr/bin/env node
// The embedded mode's ceiling: the query behind GET /api/targets (100 rows)
// on PGlite alone, in this process, with the settings the vault opens it with
// and no HTTP, session, transport or JSON around it. One JSON line: queries/s
// for the raw SQL (what the baseline runs on PostgreSQL) and for the Drizzle
// query the planner's repository runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { applyMigrations, drizzleFor, openConnection } from '@vault/persistence';
import { PLANNER_MIGRATIONS, targets } from '@vault/planner';

const SECONDS = Number(process.argv[2] ?? 4);
const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-pglite-'));
const connection = await openConnection({ kind: 'pglite', dataDir });
if (connection.kind !== 'pglite') throw new Error('openConnection gave no PGlite');

async function rate(query) {
  for (let i = 0; i < 200; i++) await query();
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < SECONDS * 1000) {
    await query();
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

try {
  await applyMigrations(connection, PLANNER_MIGRATIONS);
  const db = drizzleFor(connection);
  for (let i = 0; i < 100; i++) await db.insert(targets).values({ title: `Target ${i}`, description: 'Seeded for the benchmark' });
  const raw = await rate(() => connection.client.query('select * from planner.targets order by created_at, id'));
  const drizzle = await rate(() => db.select().from(targets).orderBy(asc(targets.createdAt), asc(targets.id)));
  process.stdout.write(`${JSON.stringify({ raw, drizzle })}\n`);
} finally {
  await connection.close();
  rmSync(dataDir, { recursive: true, force: true });
}
