import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES } from '@vault/contracts';
import { ApiClient, createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@vault/testing';
import { PrivateNats, freePort } from './private-nats.js';
import { hasSamples, scrape, sampleValue, type Scrape } from './metrics-scrape.js';
import { OWNER, startDistributedStack } from './stack.js';

/** Strings only this session sends: none may reach a metric. */
const TARGET_TITLES = ['Zephyr-Orchid-Target-1', 'Zephyr-Orchid-Target-2', 'Zephyr-Orchid-Target-3'];
const JOURNAL = { title: 'Quixotic-Heron-Entry', content: 'Marmalade-Sky-Content-7731' };

/**
 * Issue 20: every process of the distributed mode serves /metrics (the
 * services on their health port, the gateway on METRICS_PORT), and after a
 * scripted session each family counts exactly that session's work.
 */
describe('metrics of every process of the distributed mode, after a scripted session', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  // Its own broker: the event counts below are this stack's events only, from a stream of its own.
  let nats: PrivateNats;
  let stack: Awaited<ReturnType<typeof startDistributedStack>>;
  let owner: ApiClient;
  let scraped: Record<string, Scrape>;
  let sessionId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    nats = new PrivateNats(await freePort());
    await nats.start();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: nats.url, REDIS_URL: redis.url, METRICS_PORT: '0' });

    owner = new ApiClient(stack.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    sessionId = owner.sessionCookie!.split('=')[1];
    for (const title of TARGET_TITLES) expect((await owner.request('POST', '/api/targets', { title })).status).toBe(201);
    expect((await owner.request('POST', '/api/targets', { title: '' })).status).toBe(400);
    const listed = await owner.request('GET', '/api/targets');
    expect(listed.status).toBe(200);
    const first = (listed.json as Array<{ id: string; title: string }>).find((t) => t.title === TARGET_TITLES[0])!;
    expect((await owner.request('DELETE', `/api/targets/${first.id}`)).status).toBeLessThan(300);
    expect((await owner.request('POST', '/api/journal', JOURNAL)).status).toBe(201);
    expect((await owner.request('GET', '/api/logout')).status).toBeLessThan(400);

    // The access events are handled by audit-svc in the background: wait until it has acknowledged all.
    const deadline = Date.now() + 15_000;
    for (;;) {
      scraped = await scrapeAll();
      const published = sampleValue(scraped.gateway, 'vault_events_published_total', { event: 'audit.access', outcome: 'ok' });
      const acknowledged = sampleValue(scraped.audit, 'vault_events_acknowledged_total', { event: 'audit.access', consumer: 'audit-svc' });
      if ((published >= 2 && acknowledged === published) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    await stack?.close();
    await nats?.remove();
    await db?.drop();
    await redis?.drop();
  });

  async function scrapeAll(): Promise<Record<string, Scrape>> {
    const urls = stack.metricsUrls();
    return Object.fromEntries(await Promise.all(Object.entries(urls).map(async ([name, url]) => [name, await scrape(url!)] as const)));
  }

  it('serves them on every process, the gateway on a port apart from its public one, which has none', async () => {
    expect(Object.keys(scraped).sort()).toEqual(['audit', 'auth', 'gateway', 'journal', 'media', 'planner']);
    expect(new URL(stack.metricsUrls().gateway!).port).not.toBe(new URL(stack.url).port);
    // The public port answers /metrics as any page path (the web app's index), never with metrics.
    const publicAnswer = await fetch(`${stack.url}/metrics`);
    const body = await publicAnswer.text();
    expect(body).not.toContain('# TYPE');
    expect(body).not.toContain('vault_');
    // Each process labels its own series.
    for (const [name, metrics] of Object.entries(scraped))
      expect(sampleValue(metrics, 'vault_nats_connected', { service: name === 'gateway' ? 'gateway' : `${name}-svc` })).toBe(2);
  });

  it('counts HTTP requests at the gateway by route pattern and status, never the URL with its ids', () => {
    const http = (route: string, method: string, status: string) =>
      sampleValue(scraped.gateway, 'vault_http_request_duration_seconds_count', { route, method, status });
    expect(http('/api/targets', 'POST', '201')).toBe(3);
    expect(http('/api/targets', 'POST', '400')).toBe(1);
    expect(http('/api/targets', 'GET', '200')).toBe(1);
    expect(http('/api/targets/:id', 'DELETE', '200') + http('/api/targets/:id', 'DELETE', '204')).toBe(1);
    expect(http('/api/login', 'POST', '200')).toBe(1);
    const routes = new Set(scraped.gateway.samples.filter((s) => s.name === 'vault_http_request_duration_seconds_count').map((s) => s.labels.route));
    for (const route of routes) expect(route).toMatch(/^(\/[a-z:-]*)+$|^unmatched$/);
  });

  it('counts each RPC by pattern and outcome on the gateway side and on the service side, the same', () => {
    const calls = (process: string, side: 'client' | 'server', pattern: string, outcome: string) =>
      sampleValue(scraped[process], `vault_rpc_${side}_duration_seconds_count`, { pattern, outcome });
    expect(calls('gateway', 'client', 'planner.targets.create', 'ok')).toBe(3);
    expect(calls('planner', 'server', 'planner.targets.create', 'ok')).toBe(3);
    expect(calls('gateway', 'client', 'planner.targets.create', 'refused')).toBe(1);
    expect(calls('planner', 'server', 'planner.targets.create', 'refused')).toBe(1);
    expect(calls('gateway', 'client', 'planner.targets.delete', 'ok')).toBe(1);
    expect(calls('planner', 'server', 'planner.targets.delete', 'ok')).toBe(1);
    expect(calls('gateway', 'client', 'journal.entries.create', 'ok')).toBe(1);
    expect(calls('journal', 'server', 'journal.entries.create', 'ok')).toBe(1);
    // Each side only its own: the services call no one, the gateway handles nothing.
    expect(hasSamples(scraped.planner, 'vault_rpc_client_duration_seconds')).toBe(false);
    expect(hasSamples(scraped.gateway, 'vault_rpc_server_duration_seconds')).toBe(false);
    // Every call the gateway made, some service handled.
    const total = (side: 'client' | 'server', processes: string[]) =>
      processes.reduce((n, p) => n + sampleValue(scraped[p], `vault_rpc_${side}_duration_seconds_count`), 0);
    expect(total('server', [...SERVICE_NAMES])).toBe(total('client', ['gateway']));
  });

  it('counts events published, delivered and acknowledged per consumer, none redelivered', () => {
    const published = sampleValue(scraped.gateway, 'vault_events_published_total', { event: 'audit.access', outcome: 'ok' });
    const labels = { event: 'audit.access', consumer: 'audit-svc' };
    // Sign-in and sign-out, at least.
    expect(published).toBeGreaterThanOrEqual(2);
    expect(sampleValue(scraped.audit, 'vault_events_delivered_total', labels)).toBe(published);
    expect(sampleValue(scraped.audit, 'vault_events_acknowledged_total', labels)).toBe(published);
    expect(sampleValue(scraped.audit, 'vault_events_redelivered_total', labels)).toBe(0);
    expect(sampleValue(scraped.audit, 'vault_event_handler_failures_total', labels)).toBe(0);
  });

  it('shows each NATS connection up, never lost', () => {
    for (const metrics of Object.values(scraped)) {
      for (const connection of ['rpc', 'events']) {
        expect(sampleValue(metrics, 'vault_nats_connected', { connection })).toBe(1);
        expect(sampleValue(metrics, 'vault_nats_reconnects_total', { connection })).toBe(0);
        expect(sampleValue(metrics, 'vault_nats_disconnects_total', { connection })).toBe(0);
      }
    }
  });

  it("shows each service's database pool and query times, and every process ready", () => {
    for (const service of SERVICE_NAMES) {
      const metrics = scraped[service];
      expect(sampleValue(metrics, 'vault_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
      expect(metrics.samples.some((s) => s.name === 'vault_db_pool_connections' && s.labels.state === 'idle')).toBe(true);
      expect(metrics.samples.some((s) => s.name === 'vault_db_pool_waiting_requests')).toBe(true);
      expect(sampleValue(metrics, 'vault_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
      for (const check of ['database', 'transport', 'events']) expect(sampleValue(metrics, 'vault_readiness', { check })).toBe(1);
    }
    expect(hasSamples(scraped.gateway, 'vault_db_pool_connections')).toBe(false);
    for (const check of ['transport', 'events']) expect(sampleValue(scraped.gateway, 'vault_readiness', { check })).toBe(1);
    // The planner did the writes: its queries include them.
    expect(sampleValue(scraped.planner, 'vault_db_query_duration_seconds_count')).toBeGreaterThanOrEqual(4);
  });

  it('shows the Node runtime of each process: event-loop delay, heap, GC, CPU', () => {
    for (const metrics of Object.values(scraped)) {
      for (const family of [
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'process_cpu_user_seconds_total',
        'nodejs_eventloop_lag_p99_seconds',
      ])
        expect(hasSamples(metrics, family)).toBe(true);
      expect(metrics.families.get('nodejs_gc_duration_seconds')).toBe('histogram');
    }
  });

  it('holds no personal data: no title, content, password, session id or client address', () => {
    const secrets = [...TARGET_TITLES, JOURNAL.title, JOURNAL.content, OWNER.password, sessionId, owner.address];
    for (const [name, metrics] of Object.entries(scraped)) {
      for (const secret of secrets)
        expect({ process: name, found: metrics.text.includes(secret) ? secret : undefined }).toEqual({ process: name, found: undefined });
    }
  });
});
