import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../../scripts/lib/node-flags.mjs';
import { freePort } from './private-nats.js';
import { describeVaultApi } from './vault-behaviour.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** What `npm start` runs: the embedded vault bundled by esbuild (apps/vault/bundle.mjs). */
const BUNDLE = join(root, 'apps/vault/dist/bundle/main.js');
/** V8's code cache of the program the bundle runs (libs/platform/src/compiled-code.ts). */
const CODE_CACHE = join(root, 'apps/vault/dist/bundle/vault.js.cache');

/** The bundled vault as a process of its own, as the owner runs it. */
async function startBundle(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  // With the launch lines' node flags: V8 takes a code cache only under the flags it was made with.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, BUNDLE], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...SERVER_ENV,
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      VAULT_DATA_DIR: dataDir,
      VAULT_TRUSTED_PROXIES: '127.0.0.1',
      VAULT_LOCKOUT_SECONDS: '2',
      VAULT_LOGIN_RATE_LIMIT: '12',
      VAULT_OWNER_NAME: OWNER.name,
      VAULT_OWNER_USERNAME: OWNER.username,
      ...env,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the bundled vault exited (${child.exitCode}):\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`the bundled vault was not ready within 60 s:\n${stderr}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child: child as ChildProcess,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The bundle is a different artefact from the modules the other specs load:
 * each library's files found beside it (migrations, the web app, the
 * PostgreSQL binaries), native addons loaded from outside it (argon2, sharp).
 * The same behaviour suites as embedded.int-spec.ts run against it, over HTTP.
 */
describe('the bundled embedded vault (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-bundle-'));
  let vault: Awaited<ReturnType<typeof startBundle>>;

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build the vault app (npx nx run-many -t build)`);
    vault = await startBundle(dataDir, { VAULT_OWNER_PASSWORD: OWNER.password });
  });

  afterAll(async () => {
    await vault?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the web app from the build beside it', async () => {
    const index = await fetch(`${vault.url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root"');
  });

  describeVaultApi(() => vault.url);

  it('restarts on its data with the stored password hash, and stops its PostgreSQL server with it', async () => {
    const client = new ApiClient(vault.url);
    expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
    const entry = await client.request('POST', '/api/journal', { title: 'Kept across restarts', content: 'é ✓\nline two' });
    expect(entry.status).toBe(201);
    await vault.stop();

    vault = await startBundle(dataDir);
    const again = new ApiClient(vault.url);
    expect((await again.login(OWNER.username, OWNER.password)).status).toBe(200);
    const journal = await again.request('GET', '/api/journal');
    expect(journal.json).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: entry.json.id, title: 'Kept across restarts', content: 'é ✓\nline two' })]),
    );
  });

  it('restarts from the code an earlier start compiled: V8 takes the cache beside the bundle (ADR 0019)', async () => {
    // Written once a start that found none (or one V8 refused) answers: by now, this spec's first start has.
    const made = statSync(CODE_CACHE);
    await vault.stop();
    vault = await startBundle(dataDir);
    // A start whose cache V8 refused writes a new one right after it answers.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(statSync(CODE_CACHE).mtimeMs).toBe(made.mtimeMs);
    expect((await fetch(`${vault.url}/health/ready`)).status).toBe(200);
  });
});
