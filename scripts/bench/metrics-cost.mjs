#!/usr/bin/env node
// What metrics cost (issue 20: with metrics on, throughput drops by less than
// 5 %). Two distributed stacks run side by side, each on a NATS server and a
// database of its own: one with VAULT_METRICS=false, one with metrics on (the
// services on their health ports, the gateway on a METRICS_PORT), scraped
// every 5 s as Prometheus would. The same loads go to both in alternating
// rounds (A B B A A B ...), so that a drift of the machine falls on both.
// The run has two phases with the start order swapped (off first, then on
// first): on two shared cores the stack started second was measured faster
// whatever it ran, and the swap cancels that. Each phase gives a ratio of
// median rounds; the drop is from their geometric mean. Also the CPU time of
// the six processes per request, from /proc, and the instrumentation's own
// cost timed in this process (the observations of one request and a scrape),
// which the machine's other work hardly disturbs.
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
/** Rounds per phase, each side; two phases. */
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 4);
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
  const scrapeUrls = metrics
    ? [...SERVICE_NAMES.map((_, i) => `http://127.0.0.1:${servicePort + i}/metrics`), `http://127.0.0.1:${gatewayPort + 1000}/metrics`]
    : [];
  const scraper = setInterval(() => {
    for (const url of scrapeUrls)
      fetch(url)
        .then((r) => r.text())
        .catch(() => undefined);
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

/** One phase: both stacks started (in `order`), every load in alternating rounds; on ÷ off per load. */
async function phase(order) {
  const stacks = [];
  try {
    for (const name of order) {
      const ports = stacks.length === 0 ? { gatewayPort: 3741, servicePort: 3841 } : { gatewayPort: 3742, servicePort: 3851 };
      stacks.push(await startStack(name, { ...ports, metrics: name === 'on' }));
    }
    const [first, second] = stacks;
    const results = [];
    for (const load of CASES) {
      // A short warm-up each, so that neither side measures its JIT.
      for (const stack of stacks) await autocannon(stack.base + load.path, { ...load, cookie: stack.cookie, seconds: 2 });
      const rounds = { off: [], on: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const stack of round % 2 === 0 ? [first, second] : [second, first]) {
          rounds[stack.name].push(await measure(stack, load));
          await sleep(500);
        }
      }
      const figure = (name, key) => median(rounds[name].map((r) => r[key]));
      results.push({
        offRps: figure('off', 'rps'),
        onRps: figure('on', 'rps'),
        offCpu: figure('off', 'cpuMsPerRequest'),
        onCpu: figure('on', 'cpuMsPerRequest'),
      });
    }
    return results;
  } finally {
    for (const stack of stacks) await stack.stop().catch((error) => process.stderr.write(`stopping ${stack.name}: ${error}\n`));
  }
}

/**
 * The instrumentation's own CPU, timed in this process with the vault's
 * VaultMetrics: the observations one GET /api/targets makes across the stack
 * (the gateway's HTTP request and its RPC calls, their server sides, the
 * queries), and one scrape of a registry holding a session's series.
 */
async function instrumentationCost() {
  const { VaultMetrics } = await import('../../libs/platform/dist/observability/vault-metrics.js');
  const metrics = new VaultMetrics('bench');
  const routes = ['/api/targets', '/api/targets/:id', '/api/journal', '/api/journal/:id', '/api/user', '/api/status', '/api/activities', '/api/balance'];
  for (const route of routes) for (const status of ['200', '201', '400', '404']) metrics.httpRequests.observe({ route, method: 'GET', status }, 0.01);
  const oneRequest = () => {
    metrics.httpRequests.observe({ route: '/api/targets', method: 'GET', status: '200' }, 0.004);
    for (const pattern of ['auth.session.check', 'targets.list']) {
      metrics.rpcClient.observe({ pattern, outcome: 'ok' }, 0.002);
      metrics.rpcServer.observe({ pattern, outcome: 'ok' }, 0.001);
    }
    for (let query = 0; query < 3; query++) metrics.dbQueries.observe({ outcome: 'ok' }, 0.0004);
  };
  const timed = (times, work) => {
    const before = process.cpuUsage();
    for (let i = 0; i < times; i++) work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / times; // ms each
  };
  timed(20_000, oneRequest);
  const perRequestMs = timed(200_000, oneRequest);
  await metrics.text();
  const before = process.cpuUsage();
  for (let i = 0; i < 100; i++) await metrics.text();
  const used = process.cpuUsage(before);
  const perScrapeMs = (used.user + used.system) / 1000 / 100;
  return { perRequestMs, perScrapeMs };
}

const phases = [await phase(['off', 'on']), await phase(['on', 'off'])];
const cost = await instrumentationCost();
const results = CASES.map((load, i) => {
  const [a, b] = phases.map((p) => p[i]);
  const ratio = Math.sqrt((a.onRps / a.offRps) * (b.onRps / b.offRps));
  const offRps = (a.offRps + b.offRps) / 2;
  const onRps = (a.onRps + b.onRps) / 2;
  const offCpu = (a.offCpu + b.offCpu) / 2;
  const onCpu = (a.onCpu + b.onCpu) / 2;
  const drop = 1 - ratio;
  // What the instrumentation adds to a request's CPU: its observations, and the scrapes of the 7 processes every 5 s shared over the requests of those 5 s.
  const scrapeShareMs = (7 * cost.perScrapeMs) / (5 * onRps);
  const instrumentationShare = (cost.perRequestMs + scrapeShareMs) / offCpu;
  const phaseDrops = [a, b].map((p) => 1 - p.onRps / p.offRps);
  process.stderr.write(
    `${load.label}: metrics off ${offRps.toFixed(0)} req/s (${offCpu.toFixed(3)} CPU ms/req), on ${onRps.toFixed(0)} req/s (${onCpu.toFixed(3)}); drop ${(drop * 100).toFixed(1)} % (off started first ${(phaseDrops[0] * 100).toFixed(1)} %, on started first ${(phaseDrops[1] * 100).toFixed(1)} %); instrumentation ${(instrumentationShare * 100).toFixed(2)} % of a request's CPU\n`,
  );
  return {
    label: load.label,
    offRps,
    onRps,
    drop,
    phaseDrops,
    offCpu,
    onCpu,
    cpuRise: onCpu / offCpu - 1,
    instrumentationShare,
    met: drop < METRICS_DROP_BUDGET,
  };
});
process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, seconds: SECONDS, budget: METRICS_DROP_BUDGET, instrumentation: cost, results })}\n`);
