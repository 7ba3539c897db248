#!/usr/bin/env node
// What a run mode costs to start and to keep, whatever processes it runs:
// start times (spawn to every process's first 200 of /health/ready, a first
// start on empty data and restarts on the same data), the resident memory of
// every process of the mode (each root's process tree: a child the vault
// starts, a database server say, counts too), and the fsyncs per acknowledged
// write. `npm run bench` uses these; alone, on a small scale:
//
//   node bench/mode-figures.mjs embedded [--restarts 3] [--writes 20]
//   node bench/mode-figures.mjs distributed
//
// prints the rows it would add to the bench's table.
import { fileURLToPath } from 'node:url';
import { countFsyncs, describeProcesses, ensureStrace, samplePeaks, totalMemory, treeMemory } from './process-tree.mjs';
import { login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { ownMode } from './own-mode.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A first start (on empty data: the caller gives a fresh data folder or
 * database), then `restarts` restarts on the data it made with the stored
 * password hash alone, and as many with the owner's password still set
 * (VAULT_OWNER_PASSWORD, as a compose file sets it), alternating; the last
 * one is left running. Times in ms; `restart` and `restartWithPassword` are
 * the medians; `firstPeak` the memory peaks of the first start, which does
 * the most (a database made, migrations).
 */
export async function startTimes(mode, restarts = 5) {
  let running = await startMode(mode, { sampler: (pids) => samplePeaks(pids, 100) });
  const first = running.ms;
  const firstPeak = running.peak;
  // The first run's data is written before the next start (an owner, the schemas).
  await sleep(500);
  const firstReady = running.readyMs;
  const times = { stored: [], configured: [] };
  const ready = [];
  for (let i = 0; i < restarts * 2; i++) {
    const storedPassword = i % 2 === 0;
    await stopMode(running);
    running = await startMode(mode, { storedPassword });
    times[storedPassword ? 'stored' : 'configured'].push(running.ms);
    if (storedPassword) ready.push(running.readyMs);
  }
  // Each app's median, for a mode of several: which one the start waits for.
  const restartReady = Object.fromEntries(Object.keys(firstReady).map((name) => [name, median(ready.map((r) => r[name]))]));
  return {
    first,
    firstPeak,
    firstReady,
    restart: median(times.stored),
    restarts: times.stored,
    restartWithPassword: median(times.configured),
    restartsWithPassword: times.configured,
    restartReady,
    running,
  };
}

/**
 * At rest: long enough after the last request for the embedded pool to have
 * closed its spare connections (EMBEDDED_IDLE_MS, 5 s), and for V8's memory
 * reducer to have shrunk a young generation grown during the start (its
 * first pass comes about 8 s after allocation stops; docs/adr/0018).
 */
const IDLE_SETTLE_MS = 15_000;

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
/** @param {string} section @param {any} times @param {{ first?: number, restart?: number }} [budgets] */
export function startRows(section, times, { first = undefined, restart = undefined } = {}) {
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
    {
      section,
      metric: 'restart with data, the password set: start to first 200',
      value: mb(times.restartWithPassword),
      unit: 'ms',
      budget: restart ? `< ${restart}` : '',
      detail: `median of ${times.restartsWithPassword.length}: ${times.restartsWithPassword.map(mb).join(', ')}; VAULT_OWNER_PASSWORD set, as a compose file sets it`,
      met: within(times.restartWithPassword, restart),
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
  const { mode, cleanup } = await ownMode(which, option('port', which === 'embedded' ? 3731 : 3732));
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
