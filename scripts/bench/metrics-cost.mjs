#!/usr/bin/env node
// What metrics cost (issue 20: with metrics on, throughput drops by less than
// 5 %). Two distributed stacks run side by side, each on a NATS server and a
// database of its own: A with VAULT_METRICS=false, B with metrics on (the
// services on their health ports, the gateway on a METRICS_PORT), scraped
// every 5 s as Prometheus would. The same loads go to A and B in alternating
// rounds (A B B A A B ...), so that a drift of the machine falls on both; each
// side's figure is its median round. Also the CPU time of the six processes
// per request, from /proc, which the machine's other work disturbs less.
// Prints a line for people, then one JSON line (the last) for run.mjs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureDatabase } from '../lib/database.mjs';
import { SERVICE_NAMES } from '../lib/services.mjs';
import { distributedEnv, distributedMode, startMode, stopMode } from './mode-figures.mjs';
import { startPrivateNats } from './private-nats.mjs';
import { login, seedTargets } from './vault-process.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 6);
const CONNECTIONS = 16;
export const METRICS_DROP_BUDGET = 0.05;
const CASES = [
  { label: 'GET /api/targets (100)', path: '/api/targets' },
  { label: 'POST /api/targets', path: '/api/targets', method: 'POST', body: JSON.stringify({ title: 'Benchmark target' }) },
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** User plus system CPU of the processes, in ms (Linux: clock ticks of 10 ms). */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

function autocannon(url, { cookie, method = 'GET', body, seconds = SECONDS }) {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(CONNECTIONS), '-d', String(seconds), '-m', method, '-H', `cookie=${cookie}`];
  if (body) args.push('-H', 'content-type=application/json', '-b', body);
  args.push(url);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve) => child.on('exit', () => resolve(JSON.parse(stdout))));
}

async function startStack(name, { gatewayPort, servicePort, metrics }) {
  const nats = await startPrivateNats();
  const database = `postgres://postgres@127.0.0.1:5432/vault_bench_metrics_${name}_${randomBytes(3).toString('hex')}`;
  await ensureDatabase(database);
  const env = { ...distributedEnv(database), NATS_URL: nats.url, VAULT_METRICS: String(metrics) };
  const mode = distributedMode({ gatewayPort, servicePort, env });
  // The gateway serves metrics only on a port apart from its public one.
  if (metrics) mode.apps.at(-1).env.METRICS_PORT = String(gatewayPort + 1000);
  const running = await startMode(mode);
  const base = mode.base;
  const cookie = await login(base);
  await seedTargets(base, cookie, 100);
  const scrapeUrls = metrics ? [...SERVICE_NAMES.map((_, i) => `http://127.0.0.1:${servicePort + i}/metrics`), `http://127.0.0.1:${gatewayPort + 1000}/metrics`] : [];
  const scraper = setInterval(() => {
    for (const url of scrapeUrls) fetch(url).then((r) => r.text()).catch(() => undefined);
  }, 5000);
  return {
    name,
    base,
    cookie,
    running,
    stop: async () => {
      clearInterval(scraper);
      await stopMode(running);
      await nats.stop();
      const admin = new pg.Client({ connectionString: database.replace(/\/[^/]+$/, '/postgres') });
      await admin.connect();
      await admin.query(`drop database if exists ${database.split('/').pop()} with (force)`);
      await admin.end();
    },
  };
}

async function measure(stack, load) {
  const before = cpuMs(stack.running.pids);
  const report = await autocannon(stack.base + load.path, { ...load, cookie: stack.cookie });
  const cpu = cpuMs(stack.running.pids) - before;
  if (report.errors + report.non2xx > 0) throw new Error(`${stack.name}: ${report.errors + report.non2xx} failed requests on ${load.label}`);
  return { rps: report.requests.average, cpuMsPerRequest: cpu / report.requests.total };
}

const stacks = [];
try {
  const off = await startStack('off', { gatewayPort: 3741, servicePort: 3841, metrics: false });
  stacks.push(off);
  const on = await startStack('on', { gatewayPort: 3742, servicePort: 3851, metrics: true });
  stacks.push(on);
  const results = [];
  for (const load of CASES) {
    // A short warm-up each, so that neither side measures its JIT.
    for (const stack of [off, on]) await autocannon(stack.base + load.path, { ...load, cookie: stack.cookie, seconds: 2 });
    const rounds = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [off, on] : [on, off];
      for (const stack of order) {
        rounds[stack.name].push(await measure(stack, load));
        await sleep(500);
      }
    }
    const offRps = median(rounds.off.map((r) => r.rps));
    const onRps = median(rounds.on.map((r) => r.rps));
    const offCpu = median(rounds.off.map((r) => r.cpuMsPerRequest));
    const onCpu = median(rounds.on.map((r) => r.cpuMsPerRequest));
    const drop = 1 - onRps / offRps;
    results.push({ label: load.label, offRps, onRps, drop, offCpu, onCpu, cpuRise: onCpu / offCpu - 1, met: drop < METRICS_DROP_BUDGET });
    process.stderr.write(`${load.label}: metrics off ${offRps.toFixed(0)} req/s (${offCpu.toFixed(3)} CPU ms/req), on ${onRps.toFixed(0)} req/s (${onCpu.toFixed(3)}); drop ${(drop * 100).toFixed(1)} %\n`);
  }
  process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, seconds: SECONDS, budget: METRICS_DROP_BUDGET, results })}\n`);
} finally {
  for (const stack of stacks) await stack.stop().catch((error) => process.stderr.write(`stopping ${stack.name}: ${error}\n`));
}
