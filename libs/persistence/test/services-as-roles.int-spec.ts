import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { SERVICE_NAMES } from '@vault/contracts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { OWNER, startDistributedStack } from '../../host/test/stack.js';
import { describeJournalApi } from '../../journal/test/journal-api.behaviour.js';
import { describePlannerApi } from '../../planner/test/planner-api.behaviour.js';
import { provisionServiceRoles, serviceRoleName, type ServiceRole } from '../src/index.js';

/**
 * The distributed mode with a role per service and no superuser URL at all
 * (docs/adr/0008), as scripts/distributed.mjs and the trial chart run it:
 * each service migrates and serves as its own role, and self-destruct still
 * erases everything.
 */
describe('distributed mode, each service connected as its own role', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let roles: ServiceRole[];
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    roles = SERVICE_NAMES.map((schema) => ({ schema, role: serviceRoleName(db.name, schema), password: randomBytes(18).toString('base64url') }));
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await provisionServiceRoles(admin, roles);
    } finally {
      await admin.end();
    }
    const urls = Object.fromEntries(
      roles.map((r) => {
        const url = new URL(db.url);
        url.username = r.role;
        url.password = r.password;
        return [`${r.schema.toUpperCase()}_DATABASE_URL`, url.toString()];
      }),
    );
    stack = await startDistributedStack({ ...urls, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await db?.drop();
    await redis?.drop();
    if (!roles) return;
    const admin = new pg.Client({ connectionString: testServers().databaseUrl });
    await admin.connect();
    try {
      for (const { role } of roles) await admin.query(`drop role if exists "${role}"`);
    } finally {
      await admin.end();
    }
  });

  it('connects every service as its own role, none as a superuser', async () => {
    const users = await db.query<{ usename: string }>(
      'select distinct usename from pg_stat_activity where datname = current_database() and usename <> current_user order by 1',
    );
    expect(users.map((u) => u.usename)).toEqual(roles.map((r) => r.role).sort());
  });

  describe('planner', () => describePlannerApi(() => stack.url));
  describe('journal', () => describeJournalApi(() => stack.url));

  it('subtracts 0.5, then refuses 1e-7 with a clear 400, over HTTP', async () => {
    const client = new ApiClient(stack.url);
    await client.login(OWNER.username, OWNER.password);
    const before = (await client.request('GET', '/api/bonaparte/balance')).json.amount as number;
    const cents = BigInt(Math.round(before * 100)) - 50n;
    const half = await client.request('POST', '/api/bonaparte/subtract', '{"amount":0.5}');
    expect([half.status, half.json]).toEqual([200, { amount: Number(`${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`) }]);
    const tiny = await client.request('POST', '/api/bonaparte/subtract', '{"amount":1e-7}');
    expect([tiny.status, tiny.text]).toEqual([400, 'amount: must have at most 2 decimal places']);
    expect((await client.request('GET', '/api/bonaparte/balance')).json).toEqual(half.json);
  });

  // Last: it ends this vault.
  it('self-destructs: every service erases its own rows as its own role', async () => {
    const owner = new ApiClient(stack.url);
    await owner.login(OWNER.username, OWNER.password);
    await owner.request('POST', '/api/journal', { content: 'to be shredded' });
    const destroyed = await owner.request('POST', '/api/settings/self-destruct');
    expect(destroyed.status).toBe(200);
    const counts = await db.query<{ table_name: string; rows: number }>(`
      select table_schema || '.' || table_name as table_name,
             (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %I.%I', table_schema, table_name), false, true, '')))[1]::text::int as rows
        from information_schema.tables where table_schema in ('planner', 'journal', 'audit') order by 1`);
    // 200: every service confirmed its erasure; the rows written above are gone (auth and media keep their own marks, audit its erasure instant).
    expect(counts.length).toBeGreaterThan(5);
    expect(counts.filter((c) => c.rows > 0).map((c) => `${c.table_name}=${c.rows}`)).toEqual(['audit.erasure=1']);
  });
});
