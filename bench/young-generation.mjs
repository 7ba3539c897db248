#!/usr/bin/env node
// What the size of V8's young generation costs and gives (issue 37): for
// each candidate set of node flags, each mode is started with them on every
// process, on data of its own (own-mode.mjs); its resident memory at rest
// (every process, each page counted once, as the bench's idle budget), then
// with 100 targets stored its throughput and CPU per request under 16
// connections on GET /api/targets, and its memory again at rest after the
// load. The candidates run in
// alternating rounds, as this machine's speed drifts from one minute to
// the next. Prints a line per measurement, then a table per mode:
//
//   node bench/young-generation.mjs [embedded|distributed] [--rounds 2]
//
// The flags the launch lines carry (scripts/lib/node-flags.mjs) are chosen
// from its figures; docs/performance.md has the table of the choice.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { autocannon } from './autocannon.mjs';
import { idleMemory } from './mode-figures.mjs';
import { ownMode } from './own-mode.mjs';
import { processTree } from './process-tree.mjs';
import { seedTargets } from './vault-process.mjs';

/** The candidates: node flags of every process (the semi-space's size: the young generation is three of them). `[]` is the start-up setting alone (memory-settings.ts). */
const CANDIDATES = [
  { name: 'kept at 1 MB from the start-up', flags: [] },
  { name: 'grows to 8 MB', flags: ['--max-semi-space-size=8'] },
  { name: "grows to 16 MB (V8's default)", flags: ['--max-semi-space-size=16'] },
  { name: 'grows to 32 MB', flags: ['--max-semi-space-size=32'] },
  { name: '16 MB from the start', flags: ['--min-semi-space-size=16'] },
];
const CONNECTIONS = 16;
const WARM_SECONDS = 3;
const LOAD_SECONDS = 10;
const PORT = 3761;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '2' } } });
const modes = positionals.length > 0 ? positionals : ['embedded', 'distributed'];
const rounds = Number(values.rounds);

/** User plus system CPU of these processes and their children now, in ms (clock ticks of 10 ms). */
function cpuMs(pids) {
  let total = 0;
  for (const pid of processTree(...pids)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Gone meanwhile (a database backend that ended).
    }
  }
  return total;
}

async function measure(which, candidate) {
  const { mode, cleanup } = await ownMode(which, PORT);
  for (const app of mode.apps) app.nodeFlags = candidate.flags;
  const running = await startMode(mode);
  try {
    // At rest after the start, as the bench's idle budget is measured.
    const idle = (await idleMemory(running)).total;
    const cookie = await login(mode.base);
    await seedTargets(mode.base, cookie, 100);
    const url = `${mode.base}/api/targets`;
    await autocannon(url, { cookie, connections: CONNECTIONS, seconds: WARM_SECONDS });
    const cpuBefore = cpuMs(running.pids);
    const report = await autocannon(url, { cookie, connections: CONNECTIONS, seconds: LOAD_SECONDS });
    const cpuPerRequestMs = (cpuMs(running.pids) - cpuBefore) / report.requests.total;
    if (report.errors + report.non2xx > 0) throw new Error(`${which} ${candidate.name}: ${report.errors + report.non2xx} failed requests`);
    const after = (await idleMemory(running)).total;
    return { rps: report.requests.average, cpuPerRequestMs, idleMb: idle.uniqueMb ?? idle.rssMb, afterMb: after.uniqueMb ?? after.rssMb };
  } finally {
    await stopMode(running);
    await cleanup();
  }
}

const range = (values, digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 1 || sorted[0].toFixed(digits) === sorted.at(-1).toFixed(digits)
    ? sorted[0].toFixed(digits)
    : `${sorted[0].toFixed(digits)}-${sorted.at(-1).toFixed(digits)}`;
};

const results = new Map();
for (let round = 0; round < rounds; round++) {
  // Every other round backwards: no candidate always follows the same one.
  const order = round % 2 === 0 ? CANDIDATES : [...CANDIDATES].reverse();
  for (const which of modes)
    for (const candidate of order) {
      const figures = await measure(which, candidate);
      const key = `${which}|${candidate.name}`;
      results.set(key, [...(results.get(key) ?? []), figures]);
      process.stderr.write(
        `${which}, ${candidate.name} (${candidate.flags.join(' ') || 'no flag'}): ${figures.rps.toFixed(0)} GET/s, ${figures.cpuPerRequestMs.toFixed(2)} CPU ms a request, at rest ${figures.idleMb.toFixed(0)} MB, after the load ${figures.afterMb.toFixed(0)} MB\n`,
      );
    }
}
for (const which of modes) {
  process.stdout.write(`\n${which}: GET /api/targets (100), ${CONNECTIONS} connections, ${LOAD_SECONDS} s; memory of every process, each page once\n\n`);
  process.stdout.write('| node flags | GET/s | CPU per GET | at rest | at rest after the load |\n|---|---|---|---|---|\n');
  for (const candidate of CANDIDATES) {
    const runs = results.get(`${which}|${candidate.name}`);
    process.stdout.write(
      `| ${candidate.name}${candidate.flags.length > 0 ? ` (\`${candidate.flags.join(' ')}\`)` : ''} | ${range(runs.map((r) => r.rps))} | ${range(
        runs.map((r) => r.cpuPerRequestMs),
        2,
      )} ms | ${range(runs.map((r) => r.idleMb))} MB | ${range(runs.map((r) => r.afterMb))} MB |\n`,
    );
  }
}
