#!/usr/bin/env node
// What a run mode costs to start and to keep, whatever processes it runs:
// start times (spawn to every process's first 200 of /health/ready, a first
// start on empty data and restarts on the same data), the resident memory of
// every process of the mode (each root's process tree: a child the vault
// starts, a database server say, counts too), and the fsyncs per acknowledged
// write. `npm run bench` uses these; alone, on a small scale:
//
//   node scripts/bench/mode-figures.mjs embedded [--restarts 3] [--writes 20]
//   NATS_URL=nats://127.0.0.1:4301 node scripts/bench/mode-figures.mjs distributed
//
// prints the rows it would add to the bench's table.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES as SERVICES } from '../lib/services.mjs';
import { countFsyncs, describeProcesses, ensureStrace, processName, processTree, samplePeaks, totalMemory, treeMemory } from './process-tree.mjs';
import { BENCH_OWNER, login } from './vault-process.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const QUIET = {
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  VAULT_LOGIN_RATE_LIMIT: '10000',
  VAULT_OWNER_USERNAME: BENCH_OWNER.username,
  VAULT_OWNER_PASSWORD: BENCH_OWNER.password,
  VAULT_OWNER_NAME: BENCH_OWNER.name,
};

/** The embedded mode: one process (and whatever it starts), its data in `dataDir`. */
export function embeddedMode({ port, dataDir, env = {} }) {
  const base = `http://127.0.0.1:${port}`;
  return {
    name: 'embedded',
    base,
    apps: [{ entry: 'apps/vault/dist/bundle/main.js', env: { ...env, PORT: String(port), VAULT_DATA_DIR: dataDir } }],
    readyUrls: [`${base}/health/ready`],
  };
}

/** The distributed mode: the five services (health on `servicePort`..+4) and the gateway, all started at once. */
export function distributedMode({ gatewayPort, servicePort, env }) {
  const base = `http://127.0.0.1:${gatewayPort}`;
  const services = SERVICES.map((name, i) => ({ entry: `apps/${name}-svc/dist/main.js`, env: { ...env, PORT: String(servicePort + i) } }));
  return {
    name: 'distributed',
    base,
    apps: [...services, { entry: 'apps/gateway/dist/main.js', env: { ...env, PORT: String(gatewayPort) } }],
    readyUrls: [...SERVICES.map((_, i) => `http://127.0.0.1:${servicePort + i}/health/ready`), `${base}/health/ready`],
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

async function waitReady(url, since, timeoutMs = 120_000, exited) {
  while (performance.now() - since < timeoutMs) {
    if (exited.length > 0) throw new Error(`${exited.join(', ')} exited before ${url} was ready`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {}
    await sleep(20);
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

/**
 * Starts every process of the mode and waits until each answers 200 on
 * /health/ready; `ms` is from the first spawn to the last of those answers.
 * With `samplePeak`, the memory of every process (and of whatever each
 * starts meanwhile) is sampled every 100 ms from the spawn to that moment.
 */
export async function startMode(mode, { samplePeak = false, storedPassword = false } = {}) {
  const exited = [];
  const started = performance.now();
  const children = mode.apps.map(({ entry, env }) => {
    const environment = { ...process.env, ...QUIET, ...env };
    // As an owner restarts: with the hash the first start stored, no password to check and hash again.
    if (storedPassword) delete environment.VAULT_OWNER_PASSWORD;
    const child = spawn(process.execPath, [entry], { cwd: root, env: environment, stdio: ['ignore', 'ignore', 'inherit'] });
    child.exits = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
    void child.exits.then((code) => exited.push(`${entry} (${code})`));
    return child;
  });
  const pids = children.map((child) => child.pid);
  const sampler = samplePeak ? samplePeaks(pids, 100) : undefined;
  const readyMs = {};
  try {
    await Promise.all(
      mode.readyUrls.map((url, i) =>
        waitReady(url, started, undefined, exited).then(() => (readyMs[appName(mode.apps[i].entry)] = performance.now() - started)),
      ),
    );
  } catch (error) {
    sampler?.stop();
    await stopMode({ mode, children, pids });
    throw error;
  }
  const ms = performance.now() - started;
  return { mode, children, pids, ms, readyMs, peak: sampler?.stop() };
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
      `bench: processes of a stopped ${running.mode.name} vault still run after 15 s: ${left.map((pid) => `${pid} ${processName(pid)}`).join(', ')}\n`,
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
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A first start (on empty data: the caller gives a fresh data folder or
 * database), then `restarts` restarts on the data it made; the last one is
 * left running. Times in ms; `restart` is the median; `firstPeak` the memory
 * peaks of the first start, which does the most (a database made, migrations).
 */
export async function startTimes(mode, restarts = 5) {
  let running = await startMode(mode, { samplePeak: true });
  const first = running.ms;
  const firstPeak = running.peak;
  // The first run's data is written before the next start (an owner, the schemas).
  await sleep(500);
  const firstReady = running.readyMs;
  const times = [];
  const ready = [];
  for (let i = 0; i < restarts; i++) {
    await stopMode(running);
    running = await startMode(mode, { storedPassword: true });
    times.push(running.ms);
    ready.push(running.readyMs);
  }
  // Each app's median, for a mode of several: which one the start waits for.
  const restartReady = Object.fromEntries(Object.keys(firstReady).map((name) => [name, median(ready.map((r) => r[name]))]));
  return { first, firstPeak, firstReady, restart: median(times), restarts: times, restartReady, running };
}

/**
 * At rest: long enough after the last request for the embedded pool to have
 * closed its spare connections (EMBEDDED_IDLE_MS, 5 s).
 */
const IDLE_SETTLE_MS = 8000;

/** Every process of a running mode now, after `settleMs` of rest. */
export async function idleMemory(running, settleMs = IDLE_SETTLE_MS) {
  await sleep(settleMs);
  const processes = treeMemory(...running.pids);
  return { processes, total: totalMemory(processes) };
}

/** Samples every process of a running mode until `stop()`: the peak of each, and of their sum. */
export const peakMemory = (running, intervalMs = 500) => samplePeaks(running.pids, intervalMs);

/**
 * `writes` creates (POST /api/targets), one after another, each acknowledged
 * (201) before the next, under strace attached to every process of the mode
 * and their children: fsync and fdatasync calls per acknowledged write.
 */
export async function fsyncsPerWrite(running, cookie, writes = 100) {
  const base = running.mode.base;
  const counted = await countFsyncs(running.pids, async () => {
    for (let i = 0; i < writes; i++) {
      const response = await fetch(`${base}/api/targets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ title: `Durable ${i}`, description: 'fsync count' }),
      });
      if (response.status !== 201 && response.status !== 200) throw new Error(`POST /api/targets: ${response.status} ${await response.text()}`);
    }
  });
  return { writes, fsync: counted.fsync, fdatasync: counted.fdatasync, perWrite: counted.total / writes, traced: counted.pids.length };
}

const mb = (n) => n.toFixed(0);
const pssNote = (total) => (total.pssMb === undefined ? '' : `PSS ${mb(total.pssMb)} MB; `);
/** `; auth-svc 900, gateway 700 ms` for a mode of several apps, slowest first. */
const perApp = (readyMs) =>
  Object.keys(readyMs).length < 2
    ? ''
    : `; ${Object.entries(readyMs)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${mb(ms)}`)
        .join(', ')} ms`;
const within = (value, budget) => (budget === undefined ? undefined : value < budget);

/**
 * The bench's rows for one mode, `{ section, metric, value, unit, budget, detail, met }`:
 * the start times (budgets in ms, optional).
 */
export function startRows(section, times, { first, restart } = {}) {
  return [
    {
      section,
      metric: 'first run: start to first 200',
      value: mb(times.first),
      unit: 'ms',
      budget: first ? `< ${first}` : '',
      detail: `empty data; spawn to every process's /health/ready${perApp(times.firstReady)}`,
      met: within(times.first, first),
    },
    {
      section,
      metric: 'restart with data: start to first 200',
      value: mb(times.restart),
      unit: 'ms',
      budget: restart ? `< ${restart}` : '',
      detail: `median of ${times.restarts.length}: ${times.restarts.map(mb).join(', ')}; the stored password hash${perApp(times.restartReady)}`,
      met: within(times.restart, restart),
    },
  ];
}

/**
 * A memory row: the resident memory of every process of the mode, each
 * physical page once (the budget applies to it; the RSS sum where page
 * frames are not readable), beside the sum of their RSS, which counts a
 * page shared by N processes N times, the sum of their PSS, and each process.
 */
export function memoryRow(section, label, sample, budget) {
  const { total } = sample;
  const count = sample.processes.length;
  const resident = total.uniqueMb ?? total.rssMb;
  const measure = total.uniqueMb === undefined ? 'RSS sum (page frames not readable)' : `each page once; RSS sum ${mb(total.rssMb)} MB`;
  return {
    section,
    metric: `resident memory, ${label}`,
    value: mb(resident),
    unit: 'MB',
    budget: budget ? `< ${budget}` : '',
    detail: `${count} process${count === 1 ? '' : 'es'}, ${measure}; ${pssNote(total)}${describeProcesses(sample.processes)}`,
    met: within(resident, budget),
  };
}

export function fsyncRow(section, counted, note = '') {
  return {
    section,
    metric: 'fsyncs per acknowledged write',
    value: counted.perWrite.toFixed(2),
    unit: 'calls',
    budget: '',
    detail: `${counted.writes} sequential POST /api/targets: ${counted.fsync} fsync + ${counted.fdatasync} fdatasync in ${counted.traced} traced processes${note}`,
  };
}

async function main() {
  const which = process.argv[2] ?? 'embedded';
  const option = (name, fallback) => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const restarts = option('restarts', 3);
  const writes = option('writes', 20);
  ensureStrace();
  let mode;
  let cleanup = async () => undefined;
  if (which === 'embedded') {
    const dataDir = mkdtempSync(join(tmpdir(), 'vault-mode-figures-'));
    mode = embeddedMode({ port: option('port', 3731), dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  } else if (which === 'distributed') {
    const { ensureDatabase } = await import('../lib/database.mjs');
    const pg = (await import('pg')).default;
    const database = `postgres://postgres@127.0.0.1:5432/vault_figures_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(database);
    const port = option('port', 3732);
    const env = distributedEnv(database);
    mode = distributedMode({ gatewayPort: port, servicePort: port + 100, env });
    cleanup = async () => {
      const admin = new pg.Client({ connectionString: database.replace(/\/[^/]+$/, '/postgres') });
      await admin.connect();
      await admin.query(`drop database if exists ${database.split('/').pop()} with (force)`);
      await admin.end();
      // The bucket media-svc made (empty: nothing was uploaded).
      const { S3Client, DeleteBucketCommand } = await import('@aws-sdk/client-s3');
      const s3 = new S3Client({
        endpoint: env.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
      });
      await s3.send(new DeleteBucketCommand({ Bucket: env.S3_BUCKET })).catch(() => undefined);
      s3.destroy();
    };
  } else {
    throw new Error(`usage: mode-figures.mjs embedded|distributed [--restarts n] [--writes n]`);
  }
  let running;
  try {
    const times = await startTimes(mode, restarts);
    running = times.running;
    const idle = await idleMemory(running);
    const cookie = await login(mode.base);
    const peaks = peakMemory(running, 200);
    const counted = await fsyncsPerWrite(running, cookie, writes);
    const peak = peaks.stop();
    const rows = [
      ...startRows(which, times),
      memoryRow(which, 'first run (peak)', times.firstPeak),
      memoryRow(which, 'idle', idle),
      memoryRow(which, `${writes} writes (peak)`, peak),
      fsyncRow(which, counted),
    ];
    for (const r of rows) process.stdout.write(`| ${[r.section, r.metric, r.value, r.unit, r.budget, r.detail].join(' | ')} |\n`);
  } finally {
    if (running) await stopMode(running);
    await cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
