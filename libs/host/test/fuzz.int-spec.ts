import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateActivityBody,
  CreateStudyBody,
  CreateTargetBody,
  CreateWeeklyTemplateBody,
  JournalEntryBody,
  SubtractBody,
  UpdateTargetBody,
} from '@vault/contracts';
import { ApiClient } from '@vault/testing';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { OWNER, embeddedConfig, startEmbeddedVault } from './stack.js';

/**
 * Generated bad requests against every route of a signed-in vault: payloads,
 * ids, headers and methods. None may get a 5xx, and none may change data.
 * Requests that happen to be valid are not sent (they would change data by
 * design); the settings switches and sign-in/out are left to their own tests.
 */

const ROUTES: Array<{ path: string; methods: string[]; body?: z.ZodType }> = [
  { path: '/api/targets', methods: ['GET', 'POST'], body: CreateTargetBody },
  { path: '/api/targets/{id}', methods: ['PATCH', 'DELETE'], body: UpdateTargetBody },
  { path: '/api/weekly-templates', methods: ['GET', 'POST'], body: CreateWeeklyTemplateBody },
  { path: '/api/weekly-templates/{id}', methods: ['GET', 'DELETE'] },
  { path: '/api/schedule/{id}', methods: ['GET', 'PATCH'] },
  { path: '/api/schedule/apply-weekly-template', methods: ['POST'] },
  { path: '/api/activities', methods: ['GET', 'POST'], body: CreateActivityBody },
  { path: '/api/activities/{id}', methods: ['DELETE'] },
  { path: '/api/studies', methods: ['GET', 'POST'], body: CreateStudyBody },
  { path: '/api/studies/{id}', methods: ['PATCH', 'DELETE'] },
  { path: '/api/studies/completed', methods: ['GET'] },
  { path: '/api/bonaparte/balance', methods: ['GET'] },
  { path: '/api/bonaparte/subtract', methods: ['POST'], body: SubtractBody },
  { path: '/api/journal', methods: ['GET', 'POST'], body: JournalEntryBody },
  { path: '/api/journal/{id}', methods: ['PATCH', 'DELETE'], body: JournalEntryBody },
  { path: '/api/journal/count', methods: ['GET'] },
  { path: '/api/logs', methods: ['GET'] },
  { path: '/api/photos', methods: ['GET', 'PUT'] },
  { path: '/api/photos/{id}', methods: ['DELETE'] },
  { path: '/objects/photos/{id}', methods: ['GET'] },
  { path: '/api/user', methods: ['GET'] },
  { path: '/api/system/status', methods: ['GET'] },
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const READS = ['/api/targets', '/api/weekly-templates', '/api/activities', '/api/studies', '/api/studies/completed', '/api/bonaparte/balance', '/api/journal', '/api/photos'];

const badId = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('..', '%2e%2e', '0', '-1', '1e999', 'null', '%00', 'true', 'completed', 'count', '2026-02-30', '9999-99-99'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ title: fc.anything(), description: fc.anything(), completed: fc.anything(), amount: fc.anything(), content: fc.anything() }, { requiredKeys: [] }),
  fc.record({ amount: fc.oneof(fc.double(), fc.integer(), fc.string()) }),
  fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
);
const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png', 'multipart/form-data; boundary=x', '');

describe('fuzz: generated bad requests to every route', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-fuzz-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;
  let client: ApiClient;

  const snapshot = async () => Object.fromEntries(await Promise.all(READS.map(async (path) => [path, (await client.request('GET', path)).json])));

  beforeAll(async () => {
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
    client = new ApiClient(vault.url);
    await client.login(OWNER.username, OWNER.password);
    // Something to protect: one row of each kind.
    const target = (await client.request('POST', '/api/targets', { title: 'Keep me' })).json;
    await client.request('POST', '/api/journal', { content: 'Keep me too' });
    await client.request('POST', '/api/studies', { subject: 'Fuzzing', endGoal: 'Nothing changes' });
    await client.request('POST', '/api/activities', { title: 'Stay' });
    await client.request('POST', '/api/weekly-templates', { title: 'Stay', time: '08:00', dayOfWeek: 1 });
    expect(target.id).toBeDefined();
  });

  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 5,000 generated requests without a single 5xx and without changing any data', async () => {
    const before = await snapshot();
    let sent = 0;
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.oneof(fc.constantFrom(...METHODS), fc.constant<'route' | string>('route')),
        badId,
        body,
        contentType,
        fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
        async (route, methodChoice, id, payload, type, query) => {
          const method = methodChoice === 'route' ? route.methods[id.length % route.methods.length] : methodChoice;
          // A request its route's contract would accept is valid input, not a bad one.
          if (route.body && payload !== undefined && route.body.safeParse(payload).success) return;
          if (route.path.includes('apply-weekly-template') || (method === 'PUT' && route.path === '/api/photos')) {
            if (payload && typeof payload === 'object' && ('date' in payload || 'photoURL' in payload)) return;
          }
          const path = route.path.replace('{id}', encodeURIComponent(id)) + (query ? `?${encodeURIComponent(query)}=${encodeURIComponent(query)}` : '');
          const raw = payload && typeof payload === 'object' && 'raw' in payload ? String((payload as { raw: string }).raw) : payload === undefined ? undefined : JSON.stringify(payload);
          const response = await fetch(vault.url + path, {
            method,
            headers: { cookie: client.sessionCookie!, ...(type ? { 'content-type': type } : {}), 'x-forwarded-for': client.address },
            body: method === 'GET' || method === 'HEAD' ? undefined : raw,
          });
          await response.arrayBuffer();
          sent++;
          if (response.status >= 500) failures.push(`${method} ${path} ${type} ${raw?.slice(0, 80)} -> ${response.status}`);
        },
      ),
      { numRuns: 5200, seed: Number(process.env.VAULT_FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(5000);
    expect(await snapshot()).toEqual(before);
  });
});
