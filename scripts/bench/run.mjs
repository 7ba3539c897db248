#!/usr/bin/env node
// `npm run bench`: where Vault stands on this machine, side by side in one run.
// Prints a table (and with --write, puts it in docs/performance.md). Servers
// run on loopback ports of their own; the load comes from autocannon in a
// second process, bounded in time.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { ensureBuilt } from '../lib/build.mjs';
import { ensureDatabase } from '../lib/database.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const OWNER = { VAULT_OWNER_USERNAME: 'bench', VAULT_OWNER_PASSWORD: 'bench-password-123', VAULT_OWNER_NAME: 'Bench' };
const quiet = { LOG_LEVEL: 'warn', HOST: '127.0.0.1', VAULT_LOGIN_RATE_LIMIT: '10000', ...OWNER };
const rows = [];
const children = [];

const row = (section, metric, value, unit, budget = '', ratio = '') => rows.push({ section, metric, value, unit, budget, ratio });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function start(name, entry, env) {
  const child = spawn(process.execPath, [entry], { cwd: root, env: { ...process.env, ...quiet, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

async function waitFor(url, timeoutMs = 60_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - started;
    } catch {}
    await sleep(20);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function login(base) {
  const response = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: OWNER.VAULT_OWNER_USERNAME, password: OWNER.VAULT_OWNER_PASSWORD }) });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.headers.get('set-cookie').split(';')[0];
}

async function seed(base, cookie, count) {
  const headers = { 'content-type': 'application/json', cookie };
  for (let i = 0; i < count; i++) {
    await fetch(`${base}/api/targets`, { method: 'POST', headers, body: JSON.stringify({ title: `Target ${i}`, description: 'Seeded for the benchmark' }) });
    await fetch(`${base}/api/journal`, { method: 'POST', headers, body: JSON.stringify({ title: `Entry ${i}`, content: `Line one of entry ${i}\nline two` }) });
  }
}

/** autocannon in its own process (this one stays free to sample memory); requests/s and latency percentiles. */
async function load(url, { cookie, method = 'GET', body, rate } = {}) {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '10', '-d', String(SECONDS), '-m', method];
  if (cookie) args.push('-H', `cookie=${cookie}`);
  if (body) args.push('-H', 'content-type=application/json', '-b', body);
  if (rate) args.push('-R', String(rate));
  args.push(url);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  await new Promise((resolve) => child.on('exit', resolve));
  const report = JSON.parse(stdout);
  const errors = report.errors + report.non2xx;
  return { rps: report.requests.average, p50: report.latency.p50, p99: report.latency.p99, errors };
}

function bundle(dir) {
  const gz = (file) => gzipSync(readFileSync(join(dir, file))).length;
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const entry = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const staticImports = (file, seen) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith('.js')) return;
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/(?:import|from)\s*["']\.\/([\w.-]+\.js)["']/g)) staticImports(`assets/${m[1]}`, seen);
  };
  const login = new Set();
  for (const file of entry) staticImports(file, login);
  const dashboard = new Set(login);
  for (const name of readdirSync(join(dir, 'assets')).filter((f) => /^(authenticated-app|dashboard)-.*\.js$/.test(f))) staticImports(`assets/${name}`, dashboard);
  const sum = (files, ext) => [...files].filter((f) => f.endsWith(ext)).reduce((n, f) => n + gz(f), 0) / 1024;
  return { loginJs: sum(login, '.js'), loginCss: sum(login, '.css'), dashboardJs: sum(dashboard, '.js'), dashboardCss: sum(dashboard, '.css') };
}

async function main() {
  await ensureBuilt(root);
  const web = bundle(join(root, 'apps/web/dist'));
  row('web', 'login screen JS (gzip)', web.loginJs.toFixed(1), 'KB', '< 120');
  row('web', 'login screen CSS (gzip)', web.loginCss.toFixed(1), 'KB');
  row('web', 'dashboard JS (gzip, with login)', web.dashboardJs.toFixed(1), 'KB');

  // Transport round trip.
  const rtt = JSON.parse(spawnSync(process.execPath, ['scripts/bench/transport-rtt.mjs'], { cwd: root, encoding: 'utf8' }).stdout.trim().split('\n').pop());
  row('transport', 'in-process round trip p50', (rtt.inProcess.p50 * 1000).toFixed(0), 'µs', '< 100');
  row('transport', 'NATS round trip p50', (rtt.nats.p50 * 1000).toFixed(0), 'µs');

  // Embedded: first start, restart, memory.
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-'));
  const embeddedUrl = 'http://127.0.0.1:3711';
  const embeddedEnv = { PORT: '3711', VAULT_DATA_DIR: dataDir };
  let vault = start('embedded', 'apps/vault/dist/main.js', embeddedEnv);
  row('embedded', 'first run: start to first 200', (await waitFor(`${embeddedUrl}/api/system/status`)).toFixed(0), 'ms', '< 10000');
  vault.kill('SIGTERM');
  await new Promise((resolve) => vault.on('exit', resolve));
  vault = start('embedded', 'apps/vault/dist/main.js', embeddedEnv);
  row('embedded', 'restart with data: start to first 200', (await waitFor(`${embeddedUrl}/api/system/status`)).toFixed(0), 'ms', '< 3000');
  await sleep(2000);
  row('embedded', 'resident memory, idle', rssMb(vault.pid).toFixed(0), 'MB', '< 200');

  // Distributed on this machine, with its own database and bucket.
  const database = `postgres://postgres@127.0.0.1:5432/vault_bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(database);
  const distributedEnv = {
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
  const services = ['auth', 'planner', 'journal', 'media', 'audit'];
  services.forEach((name, i) => start(`${name}-svc`, `apps/${name}-svc/dist/main.js`, { ...distributedEnv, PORT: String(3801 + i) }));
  for (let i = 0; i < services.length; i++) await waitFor(`http://127.0.0.1:${3801 + i}/health/ready`);
  start('gateway', 'apps/gateway/dist/main.js', { ...distributedEnv, PORT: '3712' });
  const distributedUrl = 'http://127.0.0.1:3712';
  await waitFor(`${distributedUrl}/api/system/status`);

  const baselineUrl = 'http://127.0.0.1:3713';
  start('baseline', 'scripts/bench/baseline-server.mjs', { DATABASE_URL: database, PORT: '3713' });
  await waitFor(`${distributedUrl}/health/ready`);

  const embeddedCookie = await login(embeddedUrl);
  const distributedCookie = await login(distributedUrl);
  await seed(embeddedUrl, embeddedCookie, 100);
  await seed(distributedUrl, distributedCookie, 100);
  await waitFor(`${baselineUrl}/targets`);

  const reads = [
    ['GET /api/targets (100)', '/api/targets', '/targets'],
    ['GET /api/journal (100)', '/api/journal', '/journal'],
  ];
  let loadRss = 0;
  for (const [label, path, baselinePath] of reads) {
    const baseline = await load(baselineUrl + baselinePath);
    const sampler = setInterval(() => (loadRss = Math.max(loadRss, rssMb(vault.pid))), 500);
    const embedded = await load(embeddedUrl + path, { cookie: embeddedCookie });
    clearInterval(sampler);
    const distributed = await load(distributedUrl + path, { cookie: distributedCookie });
    row('api', `${label}: baseline (Fastify + pg)`, baseline.rps.toFixed(0), 'req/s', '', `p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`);
    row('api', `${label}: embedded`, embedded.rps.toFixed(0), 'req/s', '>= 0.7x', `${(embedded.rps / baseline.rps).toFixed(2)}x; p50 ${embedded.p50} ms, p99 ${embedded.p99} ms${embedded.errors ? `; ${embedded.errors} errors` : ''}`);
    row('api', `${label}: distributed`, distributed.rps.toFixed(0), 'req/s', '>= 0.5x', `${(distributed.rps / baseline.rps).toFixed(2)}x; p50 ${distributed.p50} ms, p99 ${distributed.p99} ms${distributed.errors ? `; ${distributed.errors} errors` : ''}`);
  }
  const body = JSON.stringify({ title: 'Benchmark target' });
  const postBaseline = await load(`${baselineUrl}/targets`, { method: 'POST', body });
  const postEmbedded = await load(`${embeddedUrl}/api/targets`, { method: 'POST', body, cookie: embeddedCookie });
  const postDistributed = await load(`${distributedUrl}/api/targets`, { method: 'POST', body, cookie: distributedCookie });
  row('api', 'POST /api/targets: baseline', postBaseline.rps.toFixed(0), 'req/s', '', `p50 ${postBaseline.p50} ms, p99 ${postBaseline.p99} ms`);
  row('api', 'POST /api/targets: embedded', postEmbedded.rps.toFixed(0), 'req/s', '>= 0.7x', `${(postEmbedded.rps / postBaseline.rps).toFixed(2)}x; p99 ${postEmbedded.p99} ms`);
  row('api', 'POST /api/targets: distributed', postDistributed.rps.toFixed(0), 'req/s', '>= 0.5x', `${(postDistributed.rps / postBaseline.rps).toFixed(2)}x; p99 ${postDistributed.p99} ms`);
  const paced = await load(`${distributedUrl}/api/targets`, { cookie: distributedCookie, rate: 200 });
  row('api', 'distributed GET /api/targets at 200 req/s: p99', paced.p99, 'ms', '< 25');
  row('embedded', 'resident memory, under load (peak)', loadRss.toFixed(0), 'MB');

  for (const child of children) child.kill('SIGTERM');
  await sleep(1500);
  rmSync(dataDir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: database.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${database.split('/').pop()} with (force)`);
  await admin.end();

  const table = [
    '| section | metric | value | unit | budget | ratio / latency |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.section} | ${r.metric} | ${r.value} | ${r.unit} | ${r.budget} | ${r.ratio} |`),
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  if (process.argv.includes('--write')) {
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    writeFileSync(
      join(root, 'docs/performance.md'),
      `# Performance\n\nMeasured by \`npm run bench -- --write\` on ${when} UTC on this project's 2-core machine (${SECONDS} s per load, 10 connections, loopback).\nRatios compare with a bare Fastify + pg route reading the same rows from the same PostgreSQL, in the same run.\n\n${table}\n`,
    );
  }
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
