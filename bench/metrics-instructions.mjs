#!/usr/bin/env node
// What metrics cost in instructions (issue 20: with metrics on, throughput
// drops by less than 5 %): the embedded vault under valgrind's callgrind,
// which counts the instructions the process runs (every thread: the JIT's and
// the garbage collector's too) and not seconds, so that the figure does not
// move with whatever else the machine or its host is doing. On two shared
// cores a throughput moves by ±15 % from one round to the next; these counts
// by a per cent or two.
//
// For each side (metrics off: VAULT_METRICS=false; on: METRICS_PORT) and each
// load, a vault of its own (node --single-threaded, without V8's memory
// reducer, so that the counts repeat) starts on a copy of the same seeded
// data; the load is warmed up (the JIT compiles what it will) and then counted
// over a fixed number of requests. With metrics on, 20 scrapes of /metrics
// are counted too, and one every 5 s shared out over the requests of those
// 5 s. Throughput at full CPU is inversely proportional to the instructions
// per request: the drop is 1 - off / (on + the scrapes' share), from the
// lowest count of each side over the rounds (instructionRounds says why).
//
//   node bench/metrics-instructions.mjs [rounds]   (3: about 11 minutes)
//
// prints a line per load; as a module, `instructionRounds` gives the figures.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/lib/node-flags.mjs';
import { embeddedMode, login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { ensureDebianTool } from './process-tree.mjs';
import { seedEntries, seedTargets } from './vault-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PORT = 3751;
const METRICS_PORT = 4751;
/** Requests before counting (the JIT settles) and counted, per load. */
const WARM_UP = Number(process.env.BENCH_INSTRUCTIONS_WARM_UP ?? 3000);
const COUNTED = Number(process.env.BENCH_INSTRUCTIONS_COUNTED ?? 1000);
const SCRAPES = 20;
/**
 * The request rate at which a scrape every 5 s is shared out: the bench's
 * paced load (200 req/s). A vault at full speed serves more, and each
 * request carries less of the scrapes.
 */
export const SCRAPE_SHARE_RATE = 200;
export const LOADS = [
  { label: 'GET /api/targets (100)', path: '/api/targets' },
  { label: 'POST /api/targets', path: '/api/targets', method: 'POST', body: JSON.stringify({ title: 'Benchmark target' }) },
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const lowest = (values) => Math.min(...values);

/** `count` requests, 4 at a time; throws on any that failed. */
function requests(base, load, cookie, count) {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '4', '-a', String(count), '-m', load.method ?? 'GET', '-H', `cookie=${cookie}`];
  if (load.body) args.push('-H', 'content-type=application/json', '-b', load.body);
  const child = spawn(process.execPath, [...args, base + load.path], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) =>
    child.on('exit', () => {
      const report = JSON.parse(stdout);
      const failed = report.errors + report.non2xx;
      if (failed > 0) reject(new Error(`${failed} failed requests on ${load.label}`));
      else resolve(report.requests.total);
    }),
  );
}

/** A data folder with the scripts' owner, 100 targets and `entries` journal entries: each vault starts on a copy (cp -a keeps its PostgreSQL's owner and modes). */
export async function seededData(entries = 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-instructions-seed-'));
  const mode = embeddedMode({ port: PORT, dataDir });
  const running = await startMode(mode);
  try {
    const cookie = await login(mode.base);
    await seedTargets(mode.base, cookie, 100);
    await seedEntries(mode.base, cookie, entries);
  } finally {
    await stopMode(running);
  }
  return dataDir;
}

/** A callgrind monitor command (instrumentation on|off, dump) to the vault's valgrind. */
function monitor(prefix, pid, ...command) {
  // Valgrind names its FIFOs after USER and HOST as the vault had them, and the vault's HOST is its listen address.
  const env = { ...process.env, HOST: '127.0.0.1' };
  const sent = spawnSync('vgdb', [`--vgdb-prefix=${prefix}`, `--pid=${pid}`, ...command], { encoding: 'utf8', env });
  if (sent.status !== 0) throw new Error(`vgdb ${command.join(' ')}: ${sent.stderr || sent.stdout}`);
}

/** The vault with metrics off or on (scraped on METRICS_PORT). */
const metricsSide = (metrics) => ({ env: metrics ? { METRICS_PORT: String(METRICS_PORT) } : { VAULT_METRICS: 'false' } });

/**
 * One load on one vault: a vault of its own under callgrind (so that each
 * load is counted after its own warm-up only), instrumentation switched on
 * once the load is warm, then the load counted; with `scrapes`, that many
 * scrapes of /metrics counted after it. Instructions per request, and per
 * scrape. `vault` says which: its environment and, to compare two builds,
 * its entry (the launcher's, apps/vault/dist/bundle/main.js, unless given).
 * @param {{ env: Record<string, string>, entry?: string }} vault
 */
export async function countLoad(vault, seedDir, load, scrapes = 0) {
  const work = mkdtempSync(join(tmpdir(), 'vault-bench-instructions-'));
  const dataDir = join(work, 'data');
  const copied = spawnSync('cp', ['-a', seedDir, dataDir]);
  if (copied.status !== 0) throw new Error(`copying the seeded data: ${copied.stderr}`);
  const prefix = join(work, 'vgdb');
  const out = join(work, 'callgrind.out');
  const mode = embeddedMode({ port: PORT, dataDir, env: vault.env });
  if (vault.entry) mode.apps[0].entry = vault.entry;
  mode.apps[0].wrap = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--vgdb-prefix=${prefix}`, `--callgrind-out-file=${out}`];
  // The JIT compiles and the GC marks on the main thread, not on helpers whose progress at a given moment differs from run to run: a count then moves by about 1 % instead of 4-7 %.
  // V8's memory reducer starts a full mark-compact once allocation slows for a few seconds, as it does under callgrind's slowdown: whether one (some 700 M instructions) falls inside a counted window or not moved a load's count by up to 20 %. At full speed under load it does not run.
  mode.apps[0].nodeFlags = [...SERVER_NODE_FLAGS, '--single-threaded', '--no-memory-reducer'];
  const running = await startMode(mode, { storedPassword: true, timeoutMs: 300_000, stdio: ['ignore', 'ignore', 'ignore'] });
  const [pid] = running.pids;
  try {
    const cookie = await login(mode.base);
    let dumps = 0;
    /** The instructions `work` makes the vault run: counted from zero, dumped to the next numbered file. */
    const count = async (work) => {
      monitor(prefix, pid, 'zero');
      await work();
      monitor(prefix, pid, 'dump');
      return totalInstructions(`${out}.${++dumps}`);
    };
    // The warm-up runs uninstrumented (fast); instrumentation is switched on once, for good (switching it back and forth upsets callgrind's totals).
    await requests(mode.base, load, cookie, WARM_UP);
    monitor(prefix, pid, 'instrumentation', 'on');
    let done = 0;
    const perRequest =
      (await count(async () => {
        done = await requests(mode.base, load, cookie, COUNTED);
      })) / done;
    // Scrapes are counted apart: under callgrind a request takes 20-50 times as long, so scrapes every 5 s of its clock would fall on far fewer requests than they do at full speed.
    const perScrape =
      scrapes > 0
        ? (await count(async () => {
            for (let i = 0; i < scrapes; i++) await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
          })) / scrapes
        : 0;
    return { perRequest, perScrape };
  } finally {
    await stopMode(running);
    rmSync(work, { recursive: true, force: true });
  }
}

/** The instructions of a callgrind dump: its `totals:` (or `summary:`) line. */
function totalInstructions(file) {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => /^(totals|summary):/.test(l));
  if (!line) throw new Error(`${file} has no totals line`);
  return Number(line.split(/\s+/)[1]);
}

/**
 * `rounds` rounds of each side (each load on a vault of its own), the sides
 * in alternating order; per load, the lowest instructions per request of
 * each side and the drop from them. The lowest, not a median: the counts of
 * one load on one side fall in two clusters (POSTs: about 1.79-1.83 M and
 * 2.08-2.11 M with metrics off, as with them on), a vault staying in one for
 * its whole counted window; no major GC falls in the window (--trace-gc).
 * Which cluster a vault lands in does not depend on the side, so a median of
 * three compares one cluster with the other about half the time (it gave
 * 15.6 % once); the lowest of each side compares the same state.
 */
export async function instructionRounds(rounds = 3) {
  ensureDebianTool('valgrind', 'valgrind', 'the metrics bench counts instructions with callgrind');
  const seedDir = await seededData();
  /** Per side, per load: the counts of each round; the scrapes' counts (metrics on). */
  const counts = { off: LOADS.map(() => []), on: LOADS.map(() => []) };
  const scrapeCounts = [];
  try {
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 === 0 ? ['off', 'on'] : ['on', 'off'])
        for (const [i, load] of LOADS.entries()) {
          const scrapes = side === 'on' && i === LOADS.length - 1 ? SCRAPES : 0;
          const counted = await countLoad(metricsSide(side === 'on'), seedDir, load, scrapes);
          counts[side][i].push(counted.perRequest);
          if (scrapes) scrapeCounts.push(counted.perScrape);
        }
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
  const perScrape = median(scrapeCounts);
  const scrapeShare = perScrape / (5 * SCRAPE_SHARE_RATE);
  return LOADS.map((load, i) => {
    const off = counts.off[i];
    const on = counts.on[i];
    return { label: load.label, off, on, perScrape, scrapeShare, drop: 1 - lowest(off) / (lowest(on) + scrapeShare) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mega = (values) => values.map((v) => (v / 1e6).toFixed(3)).join(', ');
  for (const r of await instructionRounds(Number(process.argv[2] ?? 3)))
    process.stdout.write(
      `${r.label}: off ${mega(r.off)} M, on ${mega(r.on)} M instructions per request, a scrape ${mega([r.perScrape])} M (${mega([r.scrapeShare])} M a request at ${SCRAPE_SHARE_RATE} req/s); drop ${(r.drop * 100).toFixed(1)} %\n`,
    );
}
