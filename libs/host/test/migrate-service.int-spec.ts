import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUDIT_MIGRATIONS } from '@vault/audit';
import { AUTH_MIGRATIONS } from '@vault/auth';
import { JOURNAL_MIGRATIONS } from '@vault/journal';
import { MEDIA_MIGRATIONS } from '@vault/media';
import { PLANNER_MIGRATIONS } from '@vault/planner';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceMigrations } from '@vault/persistence';
import { loadVaultConfig, migrateService, type ServiceName } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MIGRATIONS: Record<ServiceName, ServiceMigrations> = {
  auth: AUTH_MIGRATIONS,
  planner: PLANNER_MIGRATIONS,
  journal: JOURNAL_MIGRATIONS,
  media: MEDIA_MIGRATIONS,
  audit: AUDIT_MIGRATIONS,
};
const expectedCount = (service: ServiceName) =>
  JSON.parse(readFileSync(join(MIGRATIONS[service].folder, 'meta/_journal.json'), 'utf8')).entries.length as number;

/** What the Helm hook Job runs before a release serves: `node dist/main.js migrate` per service. */
describe('migrate mode (the deploy job)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  const applied = async (service: ServiceName) => Number((await db.query<{ n: string }>(`select count(*) as n from vault_migrations.${service}`))[0].n);

  it('applies every service migration once, even when two jobs run at the same time', async () => {
    const config = loadVaultConfig({ VAULT_MODE: 'distributed', DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
    const services = Object.keys(MIGRATIONS) as ServiceName[];
    const runAll = () => Promise.all(services.map((s) => migrateService(config, s, MIGRATIONS[s])));
    await Promise.all([runAll(), runAll()]);
    for (const service of services) expect(await applied(service)).toBe(expectedCount(service));
    // Again, as an upgrade with nothing new does: no error, nothing applied twice.
    await runAll();
    for (const service of services) expect(await applied(service)).toBe(expectedCount(service));
    const tables = await db.query<{ table_schema: string }>(
      `select distinct table_schema from information_schema.tables where table_schema in ('auth', 'planner', 'journal', 'media', 'audit') order by 1`,
    );
    expect(tables.map((t) => t.table_schema)).toEqual(['audit', 'auth', 'journal', 'media', 'planner']);
  });

  it('is what `node dist/main.js migrate` runs, and journal-svc needs no master key for it', () => {
    const env = { PATH: process.env.PATH, VAULT_MODE: 'distributed', DATABASE_URL: db.url, LOG_LEVEL: 'warn' };
    const run = spawnSync(process.execPath, [join(root, 'apps/journal-svc/dist/main.js'), 'migrate'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails with the missing variable named when the service has no database', () => {
    const env = { PATH: process.env.PATH, VAULT_MODE: 'distributed', LOG_LEVEL: 'warn' };
    const run = spawnSync(process.execPath, [join(root, 'apps/media-svc/dist/main.js'), 'migrate'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('MEDIA_DATABASE_URL or DATABASE_URL: required in distributed mode');
  });
});
