// The two vaults under test, each started fresh for the run and removed after it:
// - embedded: one process (apps/vault/dist/bundle/main.js) and the PostgreSQL it starts, in a new temp dir,
//   started and stopped by the scripts' vault launcher (scripts/lib/vault-launcher.mjs);
// - distributed: scripts/distributed.mjs (gateway, auth-svc, planner-svc over NATS)
//   on a new PostgreSQL database, dropped at the end. It gets a private NATS and a
//   private Redis when nats-server and redis-server are installed, so no other
//   distributed stack on this machine (a developer's, the integration suite's)
//   can answer its requests or clear its sessions.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@vault/contracts';
import pg from 'pg';
import { embeddedMode, startMode, stopMode } from '../../../scripts/lib/vault-launcher.mjs';
import { baseURL, type Mode } from './modes.ts';
import { ROOT_DIR } from './paths.ts';
import {
  answers,
  assertPortFree,
  atAbnormalExit,
  findExecutable,
  freePort,
  logTail,
  serverEnv,
  spawnGroup,
  stopGroup,
  tcpOpen,
  waitUntil,
  watched,
  withLogFile,
  type ProcessGroup,
} from './processes.ts';

/** Readiness budget per stack (the distributed launcher may rebuild first). */
const READY_TIMEOUT_MS = 120_000;

export interface RunningStack {
  mode: Mode;
  baseURL: string;
  /** Seconds from spawn to ready. */
  startSeconds: number;
  stop(): Promise<void>;
}

/** Undo steps, run last-in first-out; every step runs even when an earlier one fails. */
class Cleanup {
  private readonly steps: { what: string; run: () => Promise<void> | void; forget: () => void }[] = [];

  /** `onExit`: the synchronous version, run should the runner exit before this clean-up (Ctrl-C during setup). */
  add(what: string, run: () => Promise<void> | void, onExit?: () => void): void {
    this.steps.push({ what, run, forget: onExit ? atAbnormalExit(onExit) : () => undefined });
  }

  async run(): Promise<void> {
    const problems: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        problems.push(`${step.what}: ${(error as Error).message}`);
      } finally {
        step.forget();
      }
    }
    if (problems.length > 0) throw new Error(`Cleanup failed:\n${problems.join('\n')}`);
  }
}

async function guarded<T>(cleanup: Cleanup, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await cleanup.run().catch((problem: Error) => process.stderr.write(`${problem.message}\n`));
    throw error;
  }
}

function ownerEnv(mode: Mode): Record<string, string> {
  return {
    VAULT_OWNER_NAME: mode.owner.name,
    VAULT_OWNER_USERNAME: mode.owner.username,
    VAULT_OWNER_PASSWORD: mode.owner.password,
    LOG_LEVEL: 'warn',
    // Every test signs in from this one address; the production default (20 per 15 minutes) would refuse them.
    VAULT_LOGIN_RATE_LIMIT: '1000',
  };
}

/** The vault answers as the owner we started it with (not some other server on the port). */
async function ownedByUs(mode: Mode): Promise<boolean> {
  const response = await fetch(`${baseURL(mode)}/api/system/owner`, { signal: AbortSignal.timeout(2000) });
  if (response.status !== 200) return false;
  const owner = (await response.json()) as { name?: string; username?: string };
  return owner.name === mode.owner.name && owner.username === mode.owner.username;
}

async function canSignIn(mode: Mode): Promise<boolean> {
  return answers(`${baseURL(mode)}/api/login`, 200, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: mode.owner.username, password: mode.owner.password }),
  });
}

/**
 * Builds what changed (Nx caches the rest), once, before any vault starts: the
 * distributed launcher would build anyway, and a build running while the
 * embedded vault reads apps/web/dist at start could hand it a half-written app.
 * VAULT_E2E_SKIP_BUILD=1 tests the dist folders as they are.
 */
export async function buildAll(): Promise<number> {
  if (process.env.VAULT_E2E_SKIP_BUILD === '1') return 0;
  const started = Date.now();
  const build = spawnGroup('build', 'npx', ['nx', 'run-many', '-t', 'build', '--output-style=static'], serverEnv({}));
  const timer = setTimeout(() => stopGroup(build, 1000).catch(() => undefined), READY_TIMEOUT_MS);
  try {
    const code = await build.exited;
    if (code !== 0) throw new Error(`The build ${build.exit} (npx nx run-many -t build). Its output (${build.logFile}):\n${logTail(build)}`);
  } finally {
    clearTimeout(timer);
    await stopGroup(build, 1000);
  }
  return (Date.now() - started) / 1000;
}

export async function startEmbedded(mode: Mode): Promise<RunningStack> {
  const cleanup = new Cleanup();
  return guarded(cleanup, async () => {
    const entry = join(ROOT_DIR, 'apps/vault/dist/bundle/main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npx nx run-many -t build).`);
    await assertPortFree(mode.port, 'embedded vault');

    const dataDir = mkdtempSync(join(tmpdir(), 'vault-e2e-embedded-'));
    const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
    cleanup.add(`remove ${dataDir}`, removeDataDir, removeDataDir);

    const started = Date.now();
    // A clean environment (PATH, HOME, TMPDIR): nothing of the runner's VAULT_* or DATABASE_URL reaches the vault.
    const launcherMode = embeddedMode({ port: mode.port, dataDir, env: { ...ownerEnv(mode), HOST: '127.0.0.1' } });
    const { logFile, spawned } = withLogFile('embedded-vault', (fd) =>
      startMode(launcherMode, { environment: 'clean', stdio: ['ignore', fd, fd], timeoutMs: READY_TIMEOUT_MS }),
    );
    const vault = await spawned.catch((error: Error) => {
      throw new Error(`${error.message}. Its output (${logFile}):\n${logTail({ logFile })}`);
    });
    cleanup.add('stop the embedded vault', () => stopMode(vault));

    const url = baseURL(mode);
    const watch = [watched('embedded-vault', vault.children[0], logFile)];
    await waitUntil(`${url}/api/system/status`, () => answers(`${url}/api/system/status`), { timeoutMs: READY_TIMEOUT_MS, watch });
    await waitUntil(`the owner ${mode.owner.username} at ${url}`, () => ownedByUs(mode), { timeoutMs: 10_000, watch });

    return { mode, baseURL: url, startSeconds: (Date.now() - started) / 1000, stop: () => cleanup.run() };
  });
}

/** A private broker (or the shared one named in the environment when the binary is missing). */
async function privateNats(cleanup: Cleanup, watch: ProcessGroup[], dir: string): Promise<string> {
  if (process.env.VAULT_E2E_NATS_URL) return process.env.VAULT_E2E_NATS_URL;
  const binary = findExecutable('nats-server');
  if (!binary) {
    const shared = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    process.stderr.write(`nats-server not found: the distributed stack uses ${shared}; no other distributed stack may run on it meanwhile.\n`);
    return shared;
  }
  const port = await freePort();
  // JetStream on, stored in this run's folder: the services' events (access log, self-destruct) need it.
  const nats = spawnGroup('distributed-nats', binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'nats')], serverEnv({}));
  cleanup.add('stop NATS', () => stopGroup(nats));
  watch.push(nats);
  await waitUntil(`NATS on port ${port}`, () => tcpOpen(port), { timeoutMs: 10_000, watch });
  return `nats://127.0.0.1:${port}`;
}

async function privateRedis(cleanup: Cleanup, watch: ProcessGroup[], dir: string): Promise<string> {
  if (process.env.VAULT_E2E_REDIS_URL) return process.env.VAULT_E2E_REDIS_URL;
  const binary = findExecutable('redis-server');
  if (!binary) {
    const shared = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    process.stderr.write(`redis-server not found: the distributed stack keeps its sessions in ${shared}.\n`);
    return shared;
  }
  const port = await freePort();
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir];
  const redis = spawnGroup('distributed-redis', binary, args, serverEnv({}));
  cleanup.add('stop Redis', () => stopGroup(redis));
  watch.push(redis);
  await waitUntil(`Redis on port ${port}`, () => tcpOpen(port), { timeoutMs: 10_000, watch });
  return `redis://127.0.0.1:${port}`;
}

/**
 * The maintenance database's URL and the statements that drop the test
 * database and the service roles the launcher made for it (roles belong to
 * the whole server: they would outlive the database).
 */
function dropStatements(url: string): { adminUrl: string; sql: string[] } {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
  const roles = SERVICE_NAMES.map((service) => quoted(`${name}_${service}`));
  return { adminUrl: admin.toString(), sql: [`drop database if exists ${quoted(name)} with (force)`, `drop role if exists ${roles.join(', ')}`] };
}

async function dropDatabase(url: string): Promise<void> {
  const { adminUrl, sql } = dropStatements(url);
  // 10 s: a machine busy with the other tiers took more than 3 s to connect, and the teardown failed.
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    for (const statement of sql) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The same from an exit handler, where nothing asynchronous runs any more. */
function dropDatabaseSync(url: string): void {
  const { adminUrl, sql } = dropStatements(url);
  const script =
    "import pg from 'pg'; const c = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 10000 });" +
    ' await c.connect(); for (const s of JSON.parse(process.argv[2])) await c.query(s); await c.end();';
  spawnSync(process.execPath, ['--input-type=module', '-e', script, adminUrl, JSON.stringify(sql)], { cwd: ROOT_DIR, stdio: 'ignore', timeout: 20_000 });
}

/**
 * `notBefore`: the launcher starts only once this settles. Its Nx build would
 * rewrite apps/web/dist if sources changed since buildAll(), and the embedded
 * vault reads that folder into memory while it starts.
 */
export async function startDistributed(mode: Mode, notBefore: Promise<unknown> = Promise.resolve()): Promise<RunningStack> {
  const cleanup = new Cleanup();
  return guarded(cleanup, async () => {
    const launcher = join(ROOT_DIR, 'scripts/distributed.mjs');
    if (!existsSync(launcher)) throw new Error(`${launcher} is missing.`);
    await assertPortFree(mode.port, 'distributed gateway');
    await assertPortFree(mode.port + 101, 'distributed auth-svc health');
    await assertPortFree(mode.port + 102, 'distributed planner-svc health');

    const scratch = mkdtempSync(join(tmpdir(), 'vault-e2e-distributed-'));
    const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
    cleanup.add(`remove ${scratch}`, removeScratch, removeScratch);

    const watch: ProcessGroup[] = [];
    const [natsUrl, redisUrl] = await Promise.all([privateNats(cleanup, watch, scratch), privateRedis(cleanup, watch, scratch)]);

    const server = process.env.VAULT_E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
    const databaseUrl = `${server.replace(/\/+$/, '')}/vault_e2e_${randomBytes(5).toString('hex')}`;
    // The launcher creates the database; dropping one that was never created is harmless.
    cleanup.add(
      `drop ${databaseUrl}`,
      () => dropDatabase(databaseUrl),
      () => dropDatabaseSync(databaseUrl),
    );

    await notBefore.catch(() => undefined);
    const started = Date.now();
    const stack = spawnGroup(
      'distributed-stack',
      process.execPath,
      [launcher],
      serverEnv({
        ...ownerEnv(mode),
        PORT: String(mode.port),
        DATABASE_URL: databaseUrl,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        // The local MinIO (scripts/s3-server/start.sh, started by the test command), a bucket of its own.
        S3_ENDPOINT: process.env.VAULT_E2E_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: process.env.VAULT_E2E_S3_ACCESS_KEY ?? 'vault-test',
        S3_SECRET_ACCESS_KEY: process.env.VAULT_E2E_S3_SECRET_KEY ?? 'vault-test-secret',
        S3_BUCKET: `vault-e2e-${randomBytes(4).toString('hex')}`,
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
        // Built before any stack starts (buildAll, or the test command): the launcher builds nothing again.
        VAULT_SKIP_BUILD: '1',
      }),
    );
    cleanup.add('stop the distributed stack', () => stopGroup(stack, 8000));
    watch.push(stack);

    const url = baseURL(mode);
    await waitUntil(`${url}/health/ready`, () => answers(`${url}/health/ready`), { timeoutMs: READY_TIMEOUT_MS, watch });
    // The gateway is up before the services answer over NATS.
    await waitUntil(`${url}/api/system/status`, () => answers(`${url}/api/system/status`), { timeoutMs: 60_000, watch });
    await waitUntil(`the owner ${mode.owner.username} at ${url}`, () => ownedByUs(mode), { timeoutMs: 30_000, watch });
    await waitUntil(`a sign-in at ${url}/api/login`, () => canSignIn(mode), { timeoutMs: 30_000, watch });

    return { mode, baseURL: url, startSeconds: (Date.now() - started) / 1000, stop: () => cleanup.run() };
  });
}
