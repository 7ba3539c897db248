// The one way the project launches a vault outside its tests' own hosts:
// `npm start`, the distributed launcher, the bench, the Lighthouse run and
// the end-to-end fixtures. A mode is the processes it runs (an entry, its
// environment, cores to pin it to) and the URLs that answer 200 once it is
// ready; startMode spawns them and waits for those, stopMode stops them and
// waits for whatever they started (a database server) to be gone too.
//
// Every process gets SIGTERM should its launcher die, even by SIGKILL
// (`setpriv --pdeathsig`, util-linux, where it works): a vault is never left
// running unattended, holding its port and its PostgreSQL server.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './node-flags.mjs';
import { processName, processTree } from './process-tree.mjs';
import { SERVICE_NAMES } from './services.mjs';
import { answers200, waitUntil } from './wait-until.mjs';

/**
 * @typedef {{ entry: string, env: Record<string, string>, wrap?: string[], nodeFlags?: readonly string[] }} App a process of a mode; `wrap`, a command node runs under; `nodeFlags`, node's (SERVER_NODE_FLAGS unless given)
 * @typedef {{ name: string, base: string, apps: App[], readyUrls: string[] }} Mode
 * @typedef {import('node:child_process').ChildProcess & { exits: Promise<number | string> }} VaultProcess
 * @typedef {{ environment?: 'quiet' | 'inherit' | 'clean', stdio?: import('node:child_process').StdioOptions, storedPassword?: boolean }} SpawnOptions
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The owner of the vaults the scripts start, and sign in as. */
export const OWNER = { username: 'bench', password: 'bench-password-123', name: 'Bench' };

/** What a measured or audited vault runs with: quiet logs, the scripts' owner, no sign-in limit for the loads. */
const QUIET = {
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  VAULT_LOGIN_RATE_LIMIT: '10000',
  VAULT_OWNER_USERNAME: OWNER.username,
  VAULT_OWNER_PASSWORD: OWNER.password,
  VAULT_OWNER_NAME: OWNER.name,
};

/**
 * The file an app runs, from the repository's root: its bundle (apps/vault/bundle.mjs, scripts/bundle-app.mjs),
 * as its `npm start` and its image run it.
 * @param {string} app a folder of apps/: vault, gateway, auth-svc...
 */
export const appEntry = (app) => `apps/${app}/dist/bundle/main.js`;

/**
 * The embedded mode: one process (and the PostgreSQL server it starts); PORT and VAULT_DATA_DIR only where given.
 * @param {{ port?: number, dataDir?: string, env?: Record<string, string> }} where
 * @returns {Mode}
 */
export function embeddedMode({ port, dataDir, env = {} }) {
  const base = `http://127.0.0.1:${port ?? 3000}`;
  const place = { ...(port === undefined ? {} : { PORT: String(port) }), ...(dataDir === undefined ? {} : { VAULT_DATA_DIR: dataDir }) };
  return {
    name: 'embedded',
    base,
    apps: [{ entry: appEntry('vault'), env: { VAULT_MODE: 'embedded', ...env, ...place } }],
    readyUrls: [`${base}/health/ready`],
  };
}

/**
 * The distributed mode: the five services (health on `servicePort`..+4) and the gateway, all started at once.
 * @param {{ gatewayPort: number, servicePort: number, env: Record<string, string> }} where
 * @returns {Mode}
 */
export function distributedMode({ gatewayPort, servicePort, env }) {
  const base = `http://127.0.0.1:${gatewayPort}`;
  const services = SERVICE_NAMES.map((name, i) => ({ entry: appEntry(`${name}-svc`), env: { ...env, PORT: String(servicePort + i) } }));
  return {
    name: 'distributed',
    base,
    apps: [...services, { entry: appEntry('gateway'), env: { ...env, PORT: String(gatewayPort) } }],
    readyUrls: [...SERVICE_NAMES.map((_, i) => `http://127.0.0.1:${servicePort + i}/health/ready`), `${base}/health/ready`],
  };
}

/** The distributed mode's environment: a database of its own on the local server, a bucket of its own. */
export function distributedEnv(database) {
  return {
    VAULT_MODE: 'distributed',
    DATABASE_URL: database,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? 'vault-test',
    S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret',
    S3_BUCKET: `vault-bench-${randomBytes(4).toString('hex')}`,
  };
}

const deathSignal = process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'TERM', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * One process of a mode. `environment`: 'quiet' (this one's, the scripts'
 * owner, warnings only), 'inherit' (this one's as it is: `npm start`) or
 * 'clean' (PATH, HOME and TMPDIR only, so that a developer's VAULT_* or
 * DATABASE_URL cannot leak in). `wrap` runs node under a command that
 * execs it or runs it in its own process, so that the pid stays the
 * vault's (valgrind, for the bench's instruction counts).
 * @param {App} app
 * @param {SpawnOptions} [options]
 * @returns {VaultProcess}
 */
export function spawnApp(
  { entry, env, wrap = [], nodeFlags = SERVER_NODE_FLAGS },
  { environment = 'quiet', stdio = ['ignore', 'ignore', 'inherit'], storedPassword = false } = {},
) {
  const from = environment === 'clean' ? { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR ?? '/tmp' } : process.env;
  // The launch lines' environment first: a variable of the caller's own environment, or one the mode gives, wins.
  const vars = { ...SERVER_ENV, ...from, ...(environment === 'inherit' ? {} : QUIET), ...env };
  // As an owner restarts: with the hash the first start stored, no password to check and hash again.
  if (storedPassword) delete vars.VAULT_OWNER_PASSWORD;
  const command = [...(deathSignal ? ['setpriv', '--pdeathsig', 'TERM'] : []), ...wrap, process.execPath, ...nodeFlags, entry];
  const child = /** @type {VaultProcess} */ (spawn(command[0], command.slice(1), { cwd: root, env: vars, stdio }));
  child.exits = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return child;
}

/** Until `url` answers 200; every 20 ms, since the bench reads start times from it. */
function waitReady(url, timeoutMs, exited) {
  return waitUntil(url, () => answers200(url), { timeoutMs, intervalMs: 20, stop: () => (exited.length > 0 ? `${exited.join(', ')} exited` : undefined) });
}

/**
 * Starts every process of the mode and waits until each answers 200 on
 * /health/ready; `ms` is from the first spawn to the last of those answers,
 * `readyMs` each app's. `sampler(pids)`, if given, is started at the spawn
 * and its `stop()` result returned as `peak` (the bench's memory peaks).
 * @param {Mode} mode
 * @param {SpawnOptions & { sampler?: (pids: number[]) => { stop(): unknown }, timeoutMs?: number }} [options]
 */
export async function startMode(mode, { sampler, timeoutMs = 120_000, ...spawnOptions } = {}) {
  const exited = [];
  const started = performance.now();
  const children = mode.apps.map((app) => {
    const child = spawnApp(app, spawnOptions);
    void child.exits.then((code) => exited.push(`${app.entry} (${code})`));
    return child;
  });
  const pids = children.map((child) => child.pid);
  const sampling = sampler?.(pids);
  const readyMs = {};
  try {
    await Promise.all(
      mode.readyUrls.map((url, i) => waitReady(url, timeoutMs, exited).then(() => (readyMs[appName(mode.apps[i].entry)] = performance.now() - started))),
    );
  } catch (error) {
    sampling?.stop();
    await stopMode({ mode, children, pids });
    throw error;
  }
  const ms = performance.now() - started;
  return { mode, children, pids, ms, readyMs, peak: sampling?.stop() };
}

/**
 * SIGTERM to every process of the mode (each stops what it started), then
 * waits for them and for what they had started (a database server), so that
 * the next start does not meet the last one's children still shutting down.
 */
export async function stopMode(running) {
  const descendants = processTree(...running.pids).filter((pid) => !running.pids.includes(pid));
  for (const child of running.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(running.children.map((child) => child.exits));
  const deadline = performance.now() + 15_000;
  let left = descendants.filter(alive);
  while (left.length > 0 && performance.now() < deadline) {
    await sleep(50);
    left = left.filter(alive);
  }
  if (left.length > 0)
    process.stderr.write(
      `processes of a stopped ${running.mode.name} vault still run after 15 s: ${left.map((pid) => `${pid} ${processName(pid)}`).join(', ')}\n`,
    );
}

/** Running, not gone nor a zombie waiting for its parent. */
const alive = (pid) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

const appName = (entry) => /apps\/([\w-]+)\//.exec(entry)?.[1] ?? entry;

/** Signs in as the scripts' owner, as the login form does: the Cookie header of the new session. */
export async function login(base) {
  const response = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
