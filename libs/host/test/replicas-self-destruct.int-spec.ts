import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import pg from 'pg';
import { JournalSearchService, SEARCH_REFRESH_MS } from '@vault/journal';
import { startGateway } from '../src/index.js';
import { OWNER, startDistributedStack, urlOf } from './stack.js';

/**
 * Replicas in the distributed mode: two gateways and two journal-svc over one
 * set of the other services, as two pods of each would be. Journal search:
 * each journal-svc replica keeps its own index, and an entry written through
 * one is found through the other. Self-destruct: the gateway replica that did
 * not take it still holds a cached "not destroyed" for up to a second; a
 * request it refuses in that second must not be written to the access log of
 * the vault that was just erased; and neither journal-svc replica keeps the
 * erased entries, in its answers or in its index.
 */
describe('distributed mode: replicas of the gateway and of journal-svc', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;
  let second: INestApplication;
  let journals: JournalSearchService[];

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
    second = await startGateway(stack.config);
    const secondJournal = await stack.startReplica('journal');
    journals = [stack.apps().journal, secondJournal].map((app) => app.get(JournalSearchService));
  });

  it('finds an entry through either journal-svc replica within a second of its writing, whichever wrote it', async () => {
    const owner = new ApiClient(stack.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    for (const journal of journals) expect(await journal.search('kestrel', {})).toEqual([]);
    const created = await owner.request('POST', '/api/journal', { title: 'Relay', content: 'A kestrel over the harbour' });
    expect(created.status).toBe(201);
    const written = Date.now();
    // One replica wrote it (the queue group chose); each finds it, at its next search or timed look.
    for (const journal of journals) expect((await journal.search('kestrel', {})).map((entry) => entry.id)).toEqual([created.json.id]);
    expect(Date.now() - written).toBeLessThan(1_000);
    // And through the gateway, whichever replica each search reaches.
    for (let i = 0; i < 6; i++) expect((await owner.request('POST', '/api/journal/search', { query: '"over the harbour"' })).json).toEqual([created.json]);
  });

  afterAll(async () => {
    await second?.close();
    await stack?.close();
    await db?.drop();
    await redis?.drop();
  });

  it('refuses the ended session with 410 at once and records nothing after the erase', async () => {
    const owner = new ApiClient(stack.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    const throughSecond = new ApiClient(urlOf(second), owner.address);
    throughSecond.sessionCookie = owner.sessionCookie;
    // The second replica has just asked for the vault's state: "not destroyed" is cached there now.
    expect((await throughSecond.request('GET', '/api/targets')).status).toBe(200);

    const destroyed = await owner.request('POST', '/api/settings/self-destruct');
    expect(destroyed.json).toEqual({ destroyed: true });
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await throughSecond.request('GET', '/api/targets')).status);
    expect(answers).toEqual([410, 410, 410, 410, 410]);

    // Neither journal-svc replica answers the erased entry; the one that did not take the erase empties its
    // index at its next timed look (SEARCH_REFRESH_MS), which counts the rows.
    for (const journal of journals) expect(await journal.search('kestrel', {})).toEqual([]);
    const erased = Date.now();
    while (journals.some((journal) => journal.indexed > 0)) {
      expect(Date.now() - erased).toBeLessThan(SEARCH_REFRESH_MS + 1_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Access events travel through JetStream: give any stray one time to land.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ action: string }>('select action from audit.access_log');
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
