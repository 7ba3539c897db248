import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, testServers, type TestDatabase } from '@vault/testing';
import { OWNER, startDistributedStack, urlOf } from './stack.js';
import { startGateway } from '../src/index.js';
import { describeGuard } from './guard.behaviour.js';
import { describeJournalApi } from './journal-api.behaviour.js';
import { describePlannerApi } from './planner-api.behaviour.js';
import { execFileSync } from 'node:child_process';
import { describeTargetsApi } from './targets-api.behaviour.js';

describe('distributed mode: gateway and services over NATS, PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const servers = testServers();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: servers.natsUrl, REDIS_URL: servers.redisUrl });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.drop();
  });

  describe('targets', () => describeTargetsApi(() => stack.url));
  describe('planner', () => describePlannerApi(() => stack.url));
  describe('journal', () => describeJournalApi(() => stack.url));
  describe('guard and audit', () => describeGuard(() => stack.url, 2));

  it('keeps journal titles and contents out of a pg_dump, while the API shows them', async () => {
    const client = new ApiClient(stack.url);
    await client.login(OWNER.username, OWNER.password);
    const created = await client.request('POST', '/api/journal', { title: 'Operation Dawn', content: 'line one\nline two' });
    expect(created.json).toMatchObject({ title: 'Operation Dawn', content: 'line one\nline two' });
    await client.request('POST', '/api/targets', { title: 'Control target in clear' });
    const dump = execFileSync('pg_dump', ['--data-only', db.url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    // The dump does hold rows in clear (the control), so the absence below means something.
    expect(dump).toContain('Control target in clear');
    for (const secret of ['Operation Dawn', 'line one', 'line two']) expect(dump).not.toContain(secret);
  });

  it('keeps each service in its own schema', async () => {
    const rows = await db.query<{ table_schema: string; table_name: string }>(
      "select table_schema, table_name from information_schema.tables where table_schema in ('auth', 'planner', 'journal', 'audit') order by 1, 2",
    );
    expect(rows.map((r) => `${r.table_schema}.${r.table_name}`)).toEqual([
      'audit.access_log',
      'auth.login_failures',
      'auth.owner_credential',
      'auth.vault_state',
      'journal.data_keys',
      'journal.entries',
      'planner.activities',
      'planner.balance',
      'planner.schedule_items',
      'planner.studies',
      'planner.targets',
      'planner.weekly_templates',
    ]);
    const [credential] = await db.query<{ password_hash: string }>('select password_hash from auth.owner_credential');
    expect(credential.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('answers 503 within 2 seconds while planner-svc is down, and recovers when it is back', async () => {
    const client = new ApiClient(stack.url);
    await client.login(OWNER.username, OWNER.password);
    await stack.stop('planner');
    try {
      const started = Date.now();
      const down = await client.request('GET', '/api/targets');
      expect(down.status).toBe(503);
      expect(down.text).toBe('The planner service is unavailable. Try again shortly.');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await stack.start('planner');
    }
    expect((await client.request('GET', '/api/targets')).status).toBe(200);
  });
  // Kept after the 503 test: starting this second in-process gateway before
  // planner-svc restarts left one NATS connection open after close (a test-only
  // sequence, still unexplained), and Jest then never exits.
  it('ends the session when its time to live has passed, in Redis', async () => {
    // A second gateway replica with a one-second session lifetime, sharing Redis and NATS.
    const shortLived = await startGateway({ ...stack.config, SESSION_TTL_SECONDS: 1 });
    try {
      const client = new ApiClient(urlOf(shortLived));
      await client.login(OWNER.username, OWNER.password);
      expect((await client.request('GET', '/api/user')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await client.request('GET', '/api/user')).status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

});
