import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as contracts from '@vault/contracts';
import { HTTP_ROUTES, type HttpRouteName } from '@vault/contracts';
import { ApiClient, tinyPng } from '@vault/testing';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { OWNER, distributedStackForBlock, embeddedConfig, startEmbeddedVault } from './stack.js';

/**
 * Generated bad requests against every route of a signed-in vault: payloads,
 * ids, headers and methods. None may get a 5xx, and none may change data.
 * Requests that happen to be valid are not sent (they would change data by
 * design); the settings switches and sign-in/out are left to their own tests.
 * Then, in both modes, the hostile cases the gateway refuses itself (deep and
 * oversized JSON, non-JSON writes, foreign Host names), switches and sign-in
 * included: each with its exact 4xx, and nothing changed.
 */

/**
 * Left to their own tests: the sign-in steps and the session, re-authentication,
 * the drastic switches and the archive, and the calls that open a ceremony or
 * an upload slot (they change state by design, whatever they are sent).
 */
const NOT_FUZZED = new Set<HttpRouteName>([
  'login',
  'loginPage',
  'logout',
  'loginSecondFactor',
  'loginPasskeyOptions',
  'loginPasskey',
  'systemOwner',
  'reauthenticate',
  'reauthenticatePasskeyOptions',
  'passkeyRegistrationOptions',
  'uploadParameters',
  'enableGlobalAccess',
  'disableGlobalAccess',
  'selfDestruct',
  'exportVault',
  'restoreVault',
  'importJournal',
]);

interface FuzzedPath {
  /** With `{id}` where the route has a parameter. */
  path: string;
  methods: string[];
  /** The body schema of each method that has one (from the route table's contract names). */
  bodies: z.ZodType[];
}

/** The schema of a route's body: its forwarded contract's request for a write, or the schema it names. */
function bodySchema(route: (typeof HTTP_ROUTES)[HttpRouteName]): z.ZodType | undefined {
  const write = ['POST', 'PUT', 'PATCH'].includes(route.method);
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the table names each contract; a test, not a bundle.
  if (route.rpc && write) return (contracts[route.rpc] as { request: z.ZodType }).request;
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the table names each body's schema; a test, not a bundle.
  return route.body ? (contracts[route.body] as z.ZodType) : undefined;
}

/** Every other route of the table (HTTP_ROUTES), by path. */
const ROUTES: FuzzedPath[] = Object.values(
  (Object.keys(HTTP_ROUTES) as HttpRouteName[])
    .filter((name) => !NOT_FUZZED.has(name))
    .reduce<Record<string, FuzzedPath>>((paths, name) => {
      const route = HTTP_ROUTES[name];
      const path = route.path.replace(/:\w+/, '{id}');
      paths[path] ??= { path, methods: [], bodies: [] };
      paths[path].methods.push(route.method);
      const body = bodySchema(route);
      if (body) paths[path].bodies.push(body);
      return paths;
    }, {}),
);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const READS = [
  '/api/targets',
  '/api/weekly-templates',
  '/api/activities',
  '/api/studies',
  '/api/studies/completed',
  '/api/bonaparte/balance',
  '/api/journal',
  '/api/photos',
  '/api/second-factor',
];

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

const badId = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('..', '%2e%2e', '0', '-1', '1e999', 'null', '%00', 'true', 'completed', 'count', '2026-02-30', '9999-99-99'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    { title: fc.anything(), description: fc.anything(), completed: fc.anything(), amount: fc.anything(), content: fc.anything() },
    { requiredKeys: [] },
  ),
  fc.record({ amount: fc.oneof(fc.double(), fc.integer(), fc.string()) }),
  fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
  // Nested past the gateway's bound, under a field or bare.
  fc
    .tuple(fc.integer({ min: 33, max: 5000 }), fc.boolean())
    .map(([levels, asField]) => ({ raw: asField ? `{"title":${deepArray(levels)}}` : deepArray(levels), deep: true })),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'image/png',
  'multipart/form-data; boundary=x',
  '',
);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The status the gateway itself must answer, before any route: 415 for a
 * write whose body is not JSON (fetch sends a string body without a type as
 * text/plain), 400 for JSON nested too deep. Undefined when it is the route's to say.
 */
function gatewayRefusal(method: string, type: string, raw: string | undefined, deep: boolean): number | undefined {
  if (!WRITES.has(method)) return undefined;
  if (type ? !type.startsWith('application/json') : raw !== undefined) return 415;
  return deep && type ? 400 : undefined;
}

/** One request exactly as given: any Host, any Content-Type or none, any body. Node's fetch would add a Content-Type to a string body. */
function sendRaw(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(baseUrl);
  const bytes = body === undefined ? undefined : Buffer.from(body);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    let answered = false;
    const sent = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(bytes ? { 'content-length': String(bytes.length) } : {}) } },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    // A server that refuses a body before reading it may close while the rest is still being written.
    sent.on('error', (error) => {
      if (!answered) reject(error);
    });
    sent.end(bytes);
  });
}

const deepObject = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data; boundary=vault';
const multipartBody = (name: string, value: string) => `--vault\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--vault--\r\n`;
const NESTED = 'body: nested deeper than 32 levels';
const TOO_LARGE = 'body: too large (over 1048576 bytes)';
const jsonOnly = (sent: string) => `Content-Type: must be application/json, not ${sent}`;
const UNTYPED = 'Content-Type: must be application/json (none was sent)';
const foreignHost = (host: string) => `Host: "${host}" is not served by this vault (see VAULT_ALLOWED_HOSTS)`;

interface HostileCase {
  name: string;
  method: string;
  path: string;
  type?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Sent without the owner's session cookie (a sign-in would end it). */
  anonymous?: boolean;
  status: number;
  /** The whole answer, when the gateway itself refuses. */
  text?: string;
}

/**
 * Bodies and headers a hostile page or script can send: deep and oversized
 * JSON, forms, text/plain and multipart (what a cross-site form or a no-cors
 * fetch can send without a preflight), bodies without a type, and Host names
 * a DNS-rebinding page would bring. Each gets exactly one answer; the last
 * ones would end the vault if they got through.
 */
function hostileCases(ids: { target: string; journal: string }, port: string): HostileCase[] {
  const rebound = 'rebound.example';
  return [
    // Nesting and size: refused at the gateway, before a service sees the body.
    {
      name: 'a title nested 4,500 levels deep',
      method: 'POST',
      path: '/api/targets',
      type: JSON_TYPE,
      body: `{"title":${deepArray(4500)}}`,
      status: 400,
      text: NESTED,
    },
    {
      name: 'an update 33 objects deep',
      method: 'PATCH',
      path: `/api/targets/${ids.target}`,
      type: JSON_TYPE,
      body: deepObject(33),
      status: 400,
      text: NESTED,
    },
    {
      name: 'a sign-in with a deep password',
      method: 'POST',
      path: '/api/login',
      type: JSON_TYPE,
      body: `{"username":"${OWNER.username}","password":${deepArray(100)}}`,
      anonymous: true,
      status: 400,
      text: NESTED,
    },
    {
      name: 'a deep journal entry with a charset',
      method: 'POST',
      path: '/api/journal',
      type: `${JSON_TYPE}; charset=utf-8`,
      body: `{"content":${deepArray(40)}}`,
      status: 400,
      text: NESTED,
    },
    {
      name: 'a body over the size limit',
      method: 'POST',
      path: '/api/journal',
      type: JSON_TYPE,
      body: `{"content":"${'x'.repeat(1_048_576)}"}`,
      status: 413,
      text: TOO_LARGE,
    },
    // Not JSON: 415 before the body is read.
    { name: 'a form-encoded target', method: 'POST', path: '/api/targets', type: FORM, body: 'title=Formed', status: 415, text: jsonOnly(FORM) },
    {
      name: 'a form-encoded sign-in with the right password',
      method: 'POST',
      path: '/api/login',
      type: FORM,
      body: `username=${OWNER.username}&password=${OWNER.password}`,
      anonymous: true,
      status: 415,
      text: jsonOnly(FORM),
    },
    { name: 'a form-encoded delete', method: 'DELETE', path: `/api/journal/${ids.journal}`, type: FORM, body: 'confirm=1', status: 415, text: jsonOnly(FORM) },
    {
      name: 'JSON sent as text/plain (a no-cors fetch)',
      method: 'POST',
      path: '/api/targets',
      type: 'text/plain;charset=UTF-8',
      body: '{"title":"Plain"}',
      status: 415,
      text: jsonOnly('text/plain'),
    },
    {
      name: 'a text/plain journal update',
      method: 'PATCH',
      path: `/api/journal/${ids.journal}`,
      type: 'text/plain',
      body: '{"content":"changed"}',
      status: 415,
      text: jsonOnly('text/plain'),
    },
    {
      name: 'a multipart target',
      method: 'POST',
      path: '/api/targets',
      type: MULTIPART,
      body: multipartBody('title', 'Multi'),
      status: 415,
      text: jsonOnly('multipart/form-data'),
    },
    {
      name: 'a multipart photo registration',
      method: 'PUT',
      path: '/api/photos',
      type: MULTIPART,
      body: multipartBody('photoURL', 'x'),
      status: 415,
      text: jsonOnly('multipart/form-data'),
    },
    { name: 'a JSON body without a Content-Type', method: 'POST', path: '/api/targets', body: '{"title":"Untyped"}', status: 415, text: UNTYPED },
    {
      name: 'an empty text/plain switch of global access',
      method: 'POST',
      path: '/api/settings/global-access',
      type: 'text/plain',
      body: '',
      status: 415,
      text: jsonOnly('text/plain'),
    },
    // JSON and bodiless calls still pass the rules.
    { name: 'a bodiless delete of an unknown target', method: 'DELETE', path: '/api/targets/00000000-0000-4000-8000-000000000000', status: 404 },
    {
      name: 'JSON with a charset, reaching validation',
      method: 'POST',
      path: '/api/targets',
      type: `${JSON_TYPE}; charset=utf-8`,
      body: '{"title":"   "}',
      status: 400,
    },
    // Host names: only the configured ones (loopback by default); health answers any.
    { name: 'a read under a foreign Host', method: 'GET', path: '/api/targets', headers: { host: rebound }, status: 421, text: foreignHost(rebound) },
    {
      name: 'a DNS-rebound write whose Origin matches its Host',
      method: 'POST',
      path: '/api/targets',
      type: JSON_TYPE,
      body: '{"title":"Rebound"}',
      headers: { host: `${rebound}:${port}`, origin: `http://${rebound}:${port}` },
      status: 421,
      text: foreignHost(`${rebound}:${port}`),
    },
    {
      name: 'a DNS-rebound sign-in',
      method: 'POST',
      path: '/api/login',
      type: JSON_TYPE,
      body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
      headers: { host: rebound, origin: `http://${rebound}` },
      anonymous: true,
      status: 421,
      text: foreignHost(rebound),
    },
    {
      name: 'the page under a foreign Host',
      method: 'GET',
      path: '/',
      headers: { host: 'localhost.rebound.example' },
      status: 421,
      text: foreignHost('localhost.rebound.example'),
    },
    { name: 'liveness under a pod IP', method: 'GET', path: '/health/live', headers: { host: `10.1.2.3:${port}` }, status: 200 },
    { name: 'readiness under a pod IP', method: 'GET', path: '/health/ready', headers: { host: '10.1.2.3' }, status: 200 },
    { name: 'a *.localhost name', method: 'GET', path: '/api/system/status', headers: { host: `vault.localhost:${port}` }, status: 200 },
    {
      name: 'an Origin of another allowed name: another origin, however allowed',
      method: 'POST',
      path: '/api/targets',
      type: JSON_TYPE,
      body: '{"title":"Other name"}',
      headers: { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` },
      status: 403,
    },
    {
      name: 'an Origin of another port of the same host (the same site)',
      method: 'POST',
      path: '/api/targets',
      type: JSON_TYPE,
      body: '{"title":"Other port"}',
      headers: { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1' },
      status: 403,
    },
    {
      name: 'a foreign Origin under an allowed Host',
      method: 'POST',
      path: '/api/targets',
      type: JSON_TYPE,
      body: '{"title":"Foreign"}',
      headers: { origin: `http://${rebound}:${port}` },
      status: 403,
    },
    // Last: these end or open the whole vault if they get through.
    {
      name: 'a text/plain self-destruct',
      method: 'POST',
      path: '/api/settings/self-destruct',
      type: 'text/plain',
      body: 'go',
      status: 415,
      text: jsonOnly('text/plain'),
    },
    {
      name: 'a DNS-rebound self-destruct',
      method: 'POST',
      path: '/api/settings/self-destruct',
      headers: { host: rebound, origin: `http://${rebound}` },
      status: 421,
      text: foreignHost(rebound),
    },
  ];
}

/** What the owner sees, global access included: none of the hostile requests may change it. */
const PROTECTED_READS = [
  '/api/targets',
  '/api/journal',
  '/api/studies',
  '/api/activities',
  '/api/weekly-templates',
  '/api/photos',
  '/api/bonaparte/balance',
  '/api/user',
  '/api/system/status',
];

/** One row of each kind, then every hostile case: the exact answer each, no 5xx, and no change. */
function describeHostileRequests(baseUrl: () => string) {
  it('answers deep, oversized, non-JSON and foreign-Host requests with their 4xx, before anything changes', async () => {
    const client = new ApiClient(baseUrl());
    const signedIn = await client.login(OWNER.username, OWNER.password);
    expect([signedIn.status, signedIn.status === 200 ? '' : signedIn.text]).toEqual([200, '']);
    const target = (await client.request('POST', '/api/targets', { title: 'Keep me' })).json.id as string;
    const journal = (await client.request('POST', '/api/journal', { content: 'Keep me too' })).json.id as string;
    const snapshot = async () => Promise.all(PROTECTED_READS.map(async (path) => [path, (await client.request('GET', path)).text]));
    const before = await snapshot();

    const cases = hostileCases({ target, journal }, new URL(baseUrl()).port);
    const answers = [];
    for (const c of cases) {
      const headers = {
        ...(c.anonymous ? {} : { cookie: client.sessionCookie! }),
        'x-forwarded-for': client.address,
        ...(c.type !== undefined ? { 'content-type': c.type } : {}),
        ...c.headers,
      };
      const { status, text } = await sendRaw(baseUrl(), c.method, c.path, headers, c.body);
      answers.push({ name: c.name, status, ...(c.text !== undefined ? { text } : {}) });
    }
    expect(answers).toEqual(cases.map((c) => ({ name: c.name, status: c.status, ...(c.text !== undefined ? { text: c.text } : {}) })));

    // A bodiless POST without a type still passes; and the one gateway route that takes raw bytes (the
    // embedded upload URL; the distributed one is the bucket's) still takes an image, unregistered, so nothing shows.
    const issued = await client.request('POST', '/api/objects/upload');
    expect(issued.status).toBe(200);
    const uploadURL: string = issued.json.uploadURL;
    if (uploadURL.startsWith('/')) {
      const put = await fetch(baseUrl() + uploadURL, {
        method: 'PUT',
        body: tinyPng() as BodyInit,
        headers: { 'content-type': 'image/png', cookie: client.sessionCookie!, origin: baseUrl() },
      });
      expect(put.status).toBe(200);
    }

    expect(await snapshot()).toEqual(before);
  });
}

describe('fuzz: hostile bodies and Host names, embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-fuzz-hostile-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;

  beforeAll(async () => {
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
  });

  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describeHostileRequests(() => vault.url);
});

describe('fuzz: hostile bodies and Host names, distributed mode', () => {
  const running = distributedStackForBlock();

  describeHostileRequests(() => running().stack.url);
});

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

  it('answers 5,000 generated requests without a single 5xx, with the gateway’s own 415 and 400 where they apply, and without changing any data', async () => {
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
          // A request a contract of its path would accept is valid input, not a bad one.
          if (payload !== undefined && route.bodies.some((schema) => schema.safeParse(payload).success)) return;
          if (route.path.includes('apply-weekly-template') || (method === 'PUT' && route.path === '/api/photos')) {
            if (payload && typeof payload === 'object' && ('date' in payload || 'photoURL' in payload)) return;
          }
          const path = route.path.replace('{id}', encodeURIComponent(id)) + (query ? `?${encodeURIComponent(query)}=${encodeURIComponent(query)}` : '');
          const raw =
            payload && typeof payload === 'object' && 'raw' in payload
              ? String((payload as { raw: string }).raw)
              : payload === undefined
                ? undefined
                : JSON.stringify(payload);
          const response = await fetch(vault.url + path, {
            method,
            headers: { cookie: client.sessionCookie!, ...(type ? { 'content-type': type } : {}), 'x-forwarded-for': client.address },
            body: method === 'GET' || method === 'HEAD' ? undefined : raw,
          });
          await response.arrayBuffer();
          sent++;
          const expected = gatewayRefusal(
            method,
            type,
            method === 'GET' || method === 'HEAD' ? undefined : raw,
            Boolean(payload && typeof payload === 'object' && 'deep' in payload),
          );
          if (response.status >= 500 || (expected !== undefined && response.status !== expected)) {
            failures.push(`${method} ${path} ${type} ${raw?.slice(0, 80)} -> ${response.status}${expected ? ` (expected ${expected})` : ''}`);
          }
        },
      ),
      { numRuns: 5600, seed: Number(process.env.VAULT_FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(5000);
    expect(await snapshot()).toEqual(before);
    // 5,000 requests one after another: about 40 s on an idle machine, past a minute on one that builds beside the suite.
  }, 180_000);
});
