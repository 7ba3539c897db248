import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from './private-nats.js';
import { OWNER } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The clients of the distributed mode's servers: S3, Redis, NATS. */
const DISTRIBUTED_CLIENTS = [/^@aws-sdk\//, /^@smithy\//, /^ioredis$/, /^@ioredis\//, /^@nats-io\//];
const isDistributedClient = (name: string) => DISTRIBUTED_CLIENTS.some((pattern) => pattern.test(name));
/** Metrics (prom-client) and the OpenTelemetry SDK: loaded only when switched on. */
const isObservabilityPackage = (name: string) => name === 'prom-client' || name.startsWith('@opentelemetry/');

/**
 * Issue 14: the embedded process loads only the adapters it uses. Each
 * process below is the real built app (`apps/<app>/dist/main.js`), started
 * with a loader hook (`--import`, `module.register`) that records the URL of
 * every ES module it resolves; on SIGUSR2 (which the app also takes as a
 * shutdown signal) the process writes the files of every CommonJS module it
 * has loaded too (`require.cache`: ioredis and the AWS SDK are CommonJS).
 * The distributed processes are the control: the same record holds the
 * clients where the mode does use them.
 */
describe('modules loaded at start, by mode', () => {
  const work = mkdtempSync(join(tmpdir(), 'vault-startup-modules-'));
  const hooks = join(work, 'hooks.mjs');
  const preload = join(work, 'record-modules.mjs');

  beforeAll(() => {
    if (!existsSync(join(root, 'apps/vault/dist/main.js'))) throw new Error('apps are not built: run `npx tsc -b tsconfig.json` first');
    writeFileSync(
      hooks,
      [
        "import { appendFileSync } from 'node:fs';",
        'let out;',
        'export function initialize(data) { out = data.out; }',
        'export async function resolve(specifier, context, next) {',
        '  const resolved = await next(specifier, context);',
        "  appendFileSync(out, resolved.url + '\\n');",
        '  return resolved;',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      preload,
      [
        "import { register, createRequire } from 'node:module';",
        "import { renameSync, writeFileSync } from 'node:fs';",
        'const out = process.env.VAULT_TEST_MODULES_OUT;',
        `register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { out: out + '.esm' } });`,
        'const require = createRequire(import.meta.url);',
        "process.on('SIGUSR2', () => {",
        "  writeFileSync(out + '.tmp', Object.keys(require.cache).join('\\n'));",
        "  renameSync(out + '.tmp', out + '.cjs');",
        '});',
      ].join('\n'),
    );
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Starts an app under the recorder, runs `exercise` once it is ready, and returns the packages it loaded. */
  async function packagesLoadedBy(
    entry: string,
    env: Record<string, string>,
    readyPath: string,
    exercise: (url: string) => Promise<void> = async () => undefined,
  ) {
    const port = await freePort();
    const out = join(work, `${entry.split('/')[1]}-${randomBytes(3).toString('hex')}`);
    const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, entry], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'error', HOST: '127.0.0.1', ...env, PORT: String(port), VAULT_TEST_MODULES_OUT: out },
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}: ${stderr}`);
        const status = await fetch(url + readyPath).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        if (Date.now() > deadline) throw new Error(`${entry} was not ready within 60 s: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await exercise(url);
      child.kill('SIGUSR2');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    const files = [...readFileSync(`${out}.esm`, 'utf8').split('\n'), ...readFileSync(`${out}.cjs`, 'utf8').split('\n')];
    const packages = new Set<string>();
    for (const file of files) {
      const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(decodeURIComponent(file));
      if (match) packages.add(match[1]);
    }
    return { packages: [...packages].sort(), files: files.length };
  }

  it('the embedded vault loads no S3, Redis or NATS client, at start or serving a sign-in, a write and an upload URL', async () => {
    const dataDir = join(work, 'embedded-data');
    const { packages, files } = await packagesLoadedBy(
      'apps/vault/dist/main.js',
      { VAULT_DATA_DIR: dataDir, VAULT_OWNER_NAME: OWNER.name, VAULT_OWNER_USERNAME: OWNER.username, VAULT_OWNER_PASSWORD: OWNER.password },
      '/health/ready',
      async (url) => {
        const owner = new ApiClient(url);
        expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
        expect((await owner.request('POST', '/api/targets', { title: 'Loaded nothing extra' })).status).toBe(201);
        expect((await owner.request('POST', '/api/objects/upload')).status).toBe(200);
      },
    );
    process.stdout.write(`embedded vault: ${files} module files, ${packages.length} packages: ${packages.join(' ')}\n`);
    // The record works: the framework the vault does use is in it.
    expect(packages).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify', '@nestjs/microservices']));
    expect(packages.filter(isDistributedClient)).toEqual([]);
    // Issue 20: metrics and trace export are off by default, and then not even loaded.
    expect(packages.filter(isObservabilityPackage)).toEqual([]);
  }, 90_000);

  it('a restart of the embedded vault on its data, with the stored password hash, loads no argon2 (issue 37: a sign-in loads it)', async () => {
    // The data the test above made: the owner and its hash are stored; no password is given this time.
    const dataDir = join(work, 'embedded-data');
    const { packages } = await packagesLoadedBy('apps/vault/dist/main.js', { VAULT_DATA_DIR: dataDir }, '/health/ready');
    expect(packages).toContain('@nestjs/core');
    expect(packages).not.toContain('@node-rs/argon2');
  }, 90_000);

  describe('distributed processes (the control)', () => {
    let db: TestDatabase;
    let redis: TestRedis;
    let distributed: Record<string, string>;

    beforeAll(async () => {
      db = await createTestDatabase();
      redis = await createTestRedis();
      const { natsUrl, s3 } = testServers();
      distributed = {
        VAULT_MODE: 'distributed',
        NATS_URL: natsUrl,
        REDIS_URL: redis.url,
        DATABASE_URL: db.url,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_BUCKET: `vault-it-${randomBytes(4).toString('hex')}`,
      };
    });

    afterAll(async () => {
      await db?.drop();
      await redis?.drop();
    });

    it('the gateway loads the Redis and NATS clients it uses, and not the S3 one', async () => {
      const { packages } = await packagesLoadedBy('apps/gateway/dist/main.js', distributed, '/health/ready');
      process.stdout.write(`gateway: ${packages.join(' ')}\n`);
      expect(packages).toEqual(expect.arrayContaining(['ioredis', '@nats-io/transport-node', '@nats-io/jetstream']));
      expect(packages.filter((name) => /^@aws-sdk\//.test(name))).toEqual([]);
    }, 90_000);

    it('media-svc loads the S3 and NATS clients it uses, and neither the Redis one nor PGlite', async () => {
      const { packages } = await packagesLoadedBy('apps/media-svc/dist/main.js', distributed, '/health/ready');
      process.stdout.write(`media-svc: ${packages.join(' ')}\n`);
      expect(packages).toEqual(expect.arrayContaining(['@aws-sdk/client-s3', '@nats-io/transport-node', '@nats-io/jetstream']));
      expect(packages).not.toContain('ioredis');
      // PGlite is the embedded mode's old engine, loaded only to import an old data folder.
      expect(packages).not.toContain('@electric-sql/pglite');
      // A service serves metrics on its health port; no OTLP endpoint, so no OpenTelemetry SDK (prom-client loads only its API).
      expect(packages).toContain('prom-client');
      expect(packages.filter((name) => /^@opentelemetry\/(sdk-|exporter-|resources)/.test(name))).toEqual([]);
    }, 90_000);
  });
});
