#!/usr/bin/env node
// What metrics cost (issue 20: with metrics on, throughput drops by less than
// 5 %), measured three ways:
// - Instructions per request (the budget's figure): the embedded vault under
//   callgrind, metrics off and on, in alternating rounds
//   (metrics-instructions.mjs). Counts, not seconds: they do not move with
//   what else the machine or its host is doing.
// - Throughput of each mode (issue 37: both held to the budget, each with its
//   interval): the embedded vault on a data folder of its own, or the
//   distributed stack's six processes on a NATS server and a database of
//   their own, with VAULT_METRICS=false or with metrics on (the embedded
//   vault and the gateway on a METRICS_PORT, the services on their health
//   ports, scraped every 5 s as Prometheus would). The two stacks run side by side
//   and are loaded in turn, a slice of a few seconds each, many times: the
//   speed of this machine moves by ±15 % from one minute to the next, and
//   both sides of a slice see the same minute. A stack started second is
//   measured a little faster whatever it runs (2.5 % with both off), so
//   pairs alternate which one starts first and the drop is the geometric
//   mean of every slice's ratio over an even number of pairs, printed with
//   an interval of two standard errors. (Stacks started one at a time in
//   alternating rounds moved by ±15 % a round, and a median of three rounds
//   took the order of two.) With it, each process's CPU time per request,
//   from /proc.
// - The instrumentation's own work, timed in this process (the observations
//   of one request and a scrape).
// Prints a line for people per figure, then one JSON line (the last) for run.mjs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '../scripts/lib/database.mjs';
import { SERVICE_NAMES } from '../scripts/lib/services.mjs';
import { distributedEnv, distributedMode, embeddedMode, login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { autocannon } from './autocannon.mjs';
import { instructionRounds } from './metrics-instructions.mjs';
import { startPrivateNats } from './private-nats.mjs';
import { seedTargets } from './vault-process.mjs';

/** Pairs of distributed stacks (metrics off and on, side by side); even, so that each side is started first as often as second. */
const PAIRS = Number(process.env.BENCH_METRICS_PAIRS ?? 2);
if (!Number.isInteger(PAIRS) || PAIRS < 2 || PAIRS % 2 !== 0)
  throw new Error(`BENCH_METRICS_PAIRS must be an even number of at least 2, not ${process.env.BENCH_METRICS_PAIRS}`);
/** Slices of load per load and pair, each a few seconds on one stack then on the other. */
const SLICES = Number(process.env.BENCH_METRICS_SLICES ?? 16);
const SLICE_SECONDS = Number(process.env.BENCH_METRICS_SLICE_SECONDS ?? 3);
/** Rounds of the embedded vault under callgrind, one side each (about 2 minutes a side); 0 measures the distributed stack alone. */
const INSTRUCTION_ROUNDS = Number(process.env.BENCH_METRICS_INSTRUCTION_ROUNDS ?? 3);
const CONNECTIONS = 16;
export const METRICS_DROP_BUDGET = 0.05;
const CASES = [
  { label: 'GET /api/targets (100)', path: '/api/targets' },
  { label: 'POST /api/targets', path: '/api/targets', method: 'POST', body: JSON.stringify({ title: 'Benchmark target' }) },
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** User plus system CPU of each process, in ms (Linux: clock ticks of 10 ms). */
function cpuMsEach(pids) {
  return pids.map((pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  });
}

/** Fetches each /metrics every 5 s, as Prometheus would; clearInterval stops it. */
function scrapeEvery5s(urls) {
  return setInterval(() => {
    for (const url of urls)
      fetch(url)
        .then((r) => r.text())
        .catch(() => undefined);
  }, 5000);
}

/** An embedded vault with metrics off or on (served on a port of their own), seeded, scraped every 5 s when on. */
async function startEmbedded(name, { gatewayPort, metrics }) {
  const dataDir = mkdtempSync(join(tmpdir(), `vault-bench-metrics-${name}-`));
  const mode = embeddedMode({
    port: gatewayPort,
    dataDir,
    env: { VAULT_METRICS: String(metrics), ...(metrics ? { METRICS_PORT: String(gatewayPort + 1000) } : {}) },
  });
  const running = await startMode(mode);
  const cookie = await login(mode.base);
  await seedTargets(mode.base, cookie, 100);
  const scraper = scrapeEvery5s(metrics ? [`http://127.0.0.1:${gatewayPort + 1000}/metrics`] : []);
  return {
    name,
    base: mode.base,
    cookie,
    running,
    stop: async () => {
      clearInterval(scraper);
      await stopMode(running);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  const scraper = scrapeEvery5s(
    metrics ? [...SERVICE_NAMES.map((_, i) => `http://127.0.0.1:${servicePort + i}/metrics`), `http://127.0.0.1:${gatewayPort + 1000}/metrics`] : [],
  );
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

/** The names of each mode's processes, in the order of its pids (the distributed services, then the gateway). */
const PROCESS_NAMES = { embedded: ['vault'], distributed: [...SERVICE_NAMES.map((name) => `${name}-svc`), 'gateway'] };
/** The processes each mode's scrapes reach every 5 s. */
const SCRAPED_PROCESSES = { embedded: 1, distributed: 7 };

/** One slice of load on one stack: its throughput and each process's CPU per request. */
async function measure(stack, load) {
  const before = cpuMsEach(stack.running.pids);
  const report = await autocannon(stack.base + load.path, { ...load, cookie: stack.cookie, connections: CONNECTIONS, seconds: SLICE_SECONDS });
  const perProcess = cpuMsEach(stack.running.pids).map((after, i) => (after - before[i]) / report.requests.total);
  if (report.errors + report.non2xx > 0) throw new Error(`${stack.name}: ${report.errors + report.non2xx} failed requests on ${load.label}`);
  return { rps: report.requests.average, cpuMsPerRequest: perProcess.reduce((sum, ms) => sum + ms, 0), perProcess };
}

/**
 * One pair: a stack with metrics off and one with them on, started side by
 * side (`first` started first), each load warmed up on both, then measured in
 * SLICES slices, each slice loading one stack then the other (which one
 * first alternates), so that both see the machine as it is in the same
 * seconds. Returns, per load, the slices' figures of each side.
 */
async function measurePair(mode, first) {
  const ports = { off: { gatewayPort: 3741, servicePort: 3841 }, on: { gatewayPort: 3751, servicePort: 3861 } };
  const start = mode === 'embedded' ? startEmbedded : startStack;
  const stacks = {};
  try {
    for (const name of first === 'off' ? ['off', 'on'] : ['on', 'off']) stacks[name] = await start(name, { ...ports[name], metrics: name === 'on' });
    const figures = [];
    for (const load of CASES) {
      // A short warm-up, so that neither side measures its JIT.
      for (const stack of Object.values(stacks))
        await autocannon(stack.base + load.path, { ...load, cookie: stack.cookie, connections: CONNECTIONS, seconds: 2 });
      const slices = { off: [], on: [] };
      for (let slice = 0; slice < SLICES; slice++)
        for (const name of slice % 2 === 0 ? ['off', 'on'] : ['on', 'off']) slices[name].push(await measure(stacks[name], load));
      figures.push(slices);
    }
    return { first, figures };
  } finally {
    for (const stack of Object.values(stacks)) await stack.stop();
    await sleep(500);
  }
}

/**
 * The instrumentation's own CPU, timed in this process with the vault's
 * VaultMetrics: the observations one GET /api/targets makes across the stack
 * (the gateway's HTTP request and its RPC calls, their server sides, the
 * queries), and one scrape of a registry holding a session's series.
 */
async function instrumentationCost() {
  const { VaultMetrics } = await import('../libs/platform/dist/observability/vault-metrics.js');
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

/**
 * Each load's figures over the pairs' slices: the drop from the geometric
 * mean of the slices' ratios (on / off; as many pairs started off first as
 * on first, so the order's own effect cancels), the drop of each order
 * apart, an interval of two standard errors, each side's median throughput
 * and CPU per request (each process's too), and the instrumentation's share
 * of a request's CPU.
 */
function summarise(mode, pairs, cost) {
  const scrapedProcesses = SCRAPED_PROCESSES[mode];
  return CASES.map((load, i) => {
    const slices = (side, first) => pairs.filter((p) => !first || p.first === first).flatMap((p) => p.figures[i][side]);
    const logRatios = (first) => {
      const on = slices('on', first);
      return slices('off', first).map((off, s) => Math.log(on[s].rps / off.rps));
    };
    const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const all = logRatios();
    const meanLog = mean(all);
    const standardError = Math.sqrt(all.reduce((sum, v) => sum + (v - meanLog) ** 2, 0) / (all.length - 1) / all.length);
    const drop = 1 - Math.exp(meanLog);
    const interval = [1 - Math.exp(meanLog + 2 * standardError), 1 - Math.exp(meanLog - 2 * standardError)];
    const offFirstDrop = 1 - Math.exp(mean(logRatios('off')));
    const onFirstDrop = 1 - Math.exp(mean(logRatios('on')));
    const side = (name, pick) => median(slices(name).map(pick));
    const offRps = side('off', (f) => f.rps);
    const onRps = side('on', (f) => f.rps);
    const offCpu = side('off', (f) => f.cpuMsPerRequest);
    const onCpu = side('on', (f) => f.cpuMsPerRequest);
    const processCpu = PROCESS_NAMES[mode].map((name, p) => ({ name, off: side('off', (f) => f.perProcess[p]), on: side('on', (f) => f.perProcess[p]) }));
    // The observations of one request, and the scrapes of the processes every 5 s shared over the requests of those 5 s.
    const scrapeShareMs = (scrapedProcesses * cost.perScrapeMs) / (5 * onRps);
    const instrumentationShare = (cost.perRequestMs + scrapeShareMs) / offCpu;
    const percent = (value) => (value * 100).toFixed(1);
    process.stderr.write(
      `${mode}, ${load.label}: metrics off ${offRps.toFixed(0)} req/s (${offCpu.toFixed(3)} CPU ms/req), on ${onRps.toFixed(0)} req/s (${onCpu.toFixed(3)}); drop ${percent(drop)} % (${percent(interval[0])} to ${percent(interval[1])} %, ${all.length} slices; pairs started off first ${percent(offFirstDrop)} %, on first ${percent(onFirstDrop)} %); CPU µs per request off -> on: ${processCpu.map((p) => `${p.name} ${(p.off * 1000).toFixed(0)} -> ${(p.on * 1000).toFixed(0)}`).join(', ')}; instrumentation ${(instrumentationShare * 100).toFixed(2)} % of a request's CPU\n`,
    );
    return {
      mode,
      label: load.label,
      pairs: pairs.length,
      slices: all.length,
      offRps,
      onRps,
      drop,
      interval,
      offFirstDrop,
      onFirstDrop,
      processCpu,
      offCpu,
      onCpu,
      cpuRise: onCpu / offCpu - 1,
      instrumentationShare,
    };
  });
}

const cost = await instrumentationCost();
const instructions = INSTRUCTION_ROUNDS > 0 ? await instructionRounds(INSTRUCTION_ROUNDS) : [];
for (const r of instructions) {
  const mega = (values) => values.map((v) => (v / 1e6).toFixed(3)).join(', ');
  process.stderr.write(`embedded, ${r.label}: ${mega(r.off)} M instructions per request off, ${mega(r.on)} M on; drop ${(r.drop * 100).toFixed(1)} %\n`);
}
const results = [];
for (const mode of ['embedded', 'distributed']) {
  const pairs = [];
  for (let pair = 0; pair < PAIRS; pair++) pairs.push(await measurePair(mode, pair % 2 === 0 ? 'off' : 'on'));
  results.push(...summarise(mode, pairs, cost));
}
process.stdout.write(
  `${JSON.stringify({
    sliceSeconds: SLICE_SECONDS,
    budget: METRICS_DROP_BUDGET,
    instrumentation: cost,
    instructions: instructions.map((r) => ({ ...r, met: r.drop < METRICS_DROP_BUDGET })),
    results: results.map((r) => ({ ...r, met: r.drop < METRICS_DROP_BUDGET })),
  })}\n`,
);
