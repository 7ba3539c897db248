import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@vault/testing';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineOf, startApp, type AppProcess } from './app-process.js';
import { OtlpCollector } from './otlp-collector.js';
import { PrivateNats, freePort } from './private-nats.js';
import { OWNER, OWNER_ENV } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** Only this test sends it: it must not leave the vault in a span. */
const TITLE = 'Kestrel-Lantern-Target-5150';
const SPAN_KIND = { server: 2, client: 3 };

const owner = { ...OWNER_ENV, LOG_LEVEL: 'debug' };

/** Signs in and creates one target; returns the request id the gateway gave that request, and what must stay private. */
async function createTarget(url: string) {
  const client = new ApiClient(url);
  expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
  const created = await client.request('POST', '/api/targets', { title: TITLE });
  expect(created.status).toBe(201);
  return { requestId: created.headers.get('x-request-id')!, secrets: [TITLE, OWNER.password, client.sessionCookie!.split('=')[1], client.address] };
}

/** The trace id on the gateway's line of that request (the gateway's own, or the embedded vault's). */
async function traceOfRequest(gateway: AppProcess, requestId: string): Promise<string> {
  const line = await lineOf(gateway, (l) => l.msg === 'request' && l.requestId === requestId);
  expect(line).toMatchObject({ method: 'POST', url: '/api/targets', status: 201 });
  expect(line!.traceId).toMatch(/^[0-9a-f]{32}$/);
  return line!.traceId!;
}

/** The service's line for its side of one call, in that trace. */
const handledLine = (app: AppProcess, traceId: string, pattern: string) =>
  lineOf(app, (l) => l.msg === 'rpc handled' && l.traceId === traceId && l.pattern === pattern);

beforeAll(() => {
  if (!existsSync(join(root, 'apps/planner-svc/dist/main.js')) || !existsSync(join(root, 'apps/vault/dist/main.js')))
    throw new Error('apps are not built: run `npx tsc -b tsconfig.json` first');
});

/**
 * Issue 20: one HTTP request is one trace, started at the gateway and carried
 * in the NATS messages' headers (W3C traceparent) to the services, its id on
 * every log line of that request in each process, with or without export.
 */
describe('one request, one trace: distributed processes', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let nats: PrivateNats;
  const collector = new OtlpCollector();
  const apps: Record<string, AppProcess> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    nats = new PrivateNats(await freePort());
    await nats.start();
    const endpoint = await collector.start();
    const env = {
      ...owner,
      VAULT_MODE: 'distributed',
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    for (const service of ['auth', 'planner', 'audit']) apps[service] = await startApp(`apps/${service}-svc/dist/main.js`, env);
    apps.gateway = await startApp('apps/gateway/dist/main.js', env);
  }, 120_000);

  afterAll(async () => {
    for (const app of Object.values(apps)) await app.stop();
    await collector.stop();
    await nats?.remove();
    await db?.drop();
    await redis?.drop();
  });

  it("puts the gateway's trace id on planner-svc's line for the same request, and exports one trace with spans from both", async () => {
    const { requestId, secrets } = await createTarget(apps.gateway.url);
    const traceId = await traceOfRequest(apps.gateway, requestId);
    expect(await handledLine(apps.planner, traceId, 'planner.targets.create')).toMatchObject({ service: 'planner-svc', outcome: 'ok', context: 'Rpc' });

    const inTrace = (spans: typeof collector.spans) => spans.filter((s) => s.traceId === traceId);
    const spans = inTrace(
      await collector.waitFor(
        (all) => inTrace(all).some((s) => s.service === 'planner-svc') && inTrace(all).some((s) => s.service === 'gateway' && s.kind === SPAN_KIND.server),
      ),
    );
    const root = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND.server)!;
    const call = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND.client && s.name === 'planner.targets.create')!;
    const handled = spans.find((s) => s.service === 'planner-svc' && s.kind === SPAN_KIND.server && s.name === 'planner.targets.create')!;
    expect(root).toMatchObject({ name: 'POST /api/targets', parentSpanId: undefined });
    expect(call.parentSpanId).toBe(root.spanId);
    expect(handled.parentSpanId).toBe(call.spanId);

    // Nothing the owner sent, nor where from, is in any span exported.
    const exported = collector.bodies.join('\n');
    expect(exported).toContain(traceId);
    for (const secret of secrets) expect(exported.includes(secret) ? secret : undefined).toBeUndefined();
  });
});

describe('one request, one trace: the embedded vault, without export', () => {
  let vault: AppProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-tracing-'));

  beforeAll(async () => {
    vault = await startApp('apps/vault/dist/main.js', { ...owner, VAULT_DATA_DIR: dataDir, VAULT_WEB_DIST: join(dataDir, 'no-web-app') });
  }, 90_000);

  afterAll(async () => {
    await vault?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("puts the same trace id on the gateway's line and the planner's line of one request", async () => {
    const { requestId } = await createTarget(vault.url);
    const traceId = await traceOfRequest(vault, requestId);
    expect(await handledLine(vault, traceId, 'planner.targets.create')).toMatchObject({ service: 'vault', outcome: 'ok', context: 'Rpc' });
    // Another request, another trace.
    const other = await traceOfRequest(vault, (await createTarget(vault.url)).requestId);
    expect(other).not.toBe(traceId);
  });
});
