#!/usr/bin/env node
// What one route costs each process of a mode, and where that time goes: a
// mode started on data of its own (own-mode.mjs), 100 targets and 100
// journal entries stored, then each load (autocannon, 16 connections, as
// the bench) after a warm-up of its own. Prints, per load and process, the
// CPU per request (user and system time from /proc/<pid>/stat across the
// load; in embedded mode the vault's PostgreSQL apart).
//
//   node bench/route-cost.mjs embedded|distributed [--perf | --profile] [--unbundled] [--baseline] [--seconds n] [load...]
//
// --perf: where the CPU time goes (Linux perf, cpu-clock samples, which fall
//   only while a thread runs; node's --perf-prof names the JIT's functions,
//   `perf inject --jit` places each at the time it was compiled), summarised
//   per load and process by perf-summary.mjs. The processes run in a folder
//   of their own, where node writes its JIT dump.
// --profile: V8's sampling profiler instead (`--cpu-prof`), the samples of
//   each load's window only (cpuprofile-summary.mjs). It samples wall time:
//   a thread that waits for a core is charged to what it last called
//   (`writev` on two busy cores).
// --unbundled: each app's dist/main.js instead of its bundle, so that a
//   profile names the packages and the project's libs.
// --baseline (distributed: it reads the mode's database): after each load,
//   the bench's bare Fastify + pg route for it (baseline-server.mjs).
//
// Loads by name: trivial-read, list-targets, page-of-entries, list-entries,
// create-target, create-entry (all, in that order, when none is named).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/lib/node-flags.mjs';
import { processTree } from '../scripts/lib/process-tree.mjs';
import { login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { autocannon } from './autocannon.mjs';
import { summary } from './cpuprofile-summary.mjs';
import { ownMode } from './own-mode.mjs';
import { perfSummary } from './perf-summary.mjs';
import { seedEntries, seedTargets, waitFor } from './vault-process.mjs';

const ENTRY = JSON.stringify({ title: 'Field note', content: 'What the day held\nsecond line' });
/** Each load, and the bare route of the bench's baseline that does its work; reads first, so that they read the 100 rows seeded. */
const LOADS = {
  'trivial-read': { path: '/api/user', baseline: '/user' },
  'list-targets': { path: '/api/targets', baseline: '/targets' },
  'page-of-entries': { path: '/api/journal?limit=50', baseline: '/journal/first-50' },
  'list-entries': { path: '/api/journal', baseline: '/journal' },
  'create-target': { path: '/api/targets', method: 'POST', body: JSON.stringify({ title: 'Benchmark target' }), baseline: '/targets' },
  'create-entry': { path: '/api/journal', method: 'POST', body: ENTRY, baseline: '/journal' },
};
const SEEDED = 100;
const WARMUP_SECONDS = 3;
const BASELINE_PORT = 3789;

const args = process.argv.slice(2);
const which = args.shift();
const option = (name) => args.includes(name);
const secondsAt = args.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 8;
const named = args.filter((arg, i) => !arg.startsWith('--') && i !== secondsAt + 1);
const loads = named.length > 0 ? named : Object.keys(LOADS);
for (const name of loads) if (!LOADS[name]) throw new Error(`no load named ${name}: ${Object.keys(LOADS).join(', ')}`);
if (option('--baseline') && which !== 'distributed') throw new Error("--baseline reads the distributed mode's database");
if (option('--perf') && option('--profile')) throw new Error('--perf or --profile, not both');

/** User and system CPU of a process so far, and system alone, in ms (/proc/<pid>/stat fields 14 and 15); zeros once it is gone. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const [user, system] = [Number(fields[11]) * 10, Number(fields[12]) * 10];
    return { total: user + system, system };
  } catch {
    return { total: 0, system: 0 };
  }
}
/** The CPU of each process and, summed, of what they started (the embedded vault's PostgreSQL). */
function cpuOfProcesses(pids) {
  const started = processTree(...pids).filter((pid) => !pids.includes(pid));
  return { own: pids.map(cpuOf), started: new Map(started.map((pid) => [pid, cpuOf(pid).total])) };
}
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** perf's cache of the files it read symbols from: the run's own, not ~/.debug. */
const perfEnv = () => ({ ...process.env, PERF_BUILDID_DIR: join(workDir, 'perf-buildids') });
/** `perf record` of one process and its threads until `stop()`, which makes its JIT's functions known to the file and summarises it. */
function perfRecord(pid, file) {
  const child = spawn('perf', ['record', '-k', 'mono', '-e', 'cpu-clock', '-F', '1999', '-g', '-p', String(pid), '-o', file], {
    stdio: 'ignore',
    env: perfEnv(),
  });
  return {
    async stop() {
      child.kill('SIGINT');
      await new Promise((done) => child.on('exit', done));
      const injected = spawnSync('perf', ['inject', '--jit', '-i', file, '-o', `${file}.jit`], { encoding: 'utf8', env: perfEnv() });
      if (injected.status !== 0) throw new Error(`perf inject: ${injected.stderr}`);
      return perfSummary(`${file}.jit`, perfEnv());
    },
  };
}

/**
 * One load after its warm-up: its rate and each process's CPU per request,
 * printed with `label`, then the perf summaries; the load's window on the
 * monotonic clock.
 */
async function measure(base, { path, method, body }, processes, cookie, label, workDir) {
  const options = { connections: 16, cookie, method, body };
  await autocannon(base + path, { ...options, seconds: WARMUP_SECONDS });
  const pids = processes.map(({ pid }) => pid);
  const recorders = option('--perf')
    ? processes.map(({ pid, name }) => [name, perfRecord(pid, join(workDir, `${label.replace(/\W+/g, '-')}.${name}.perf`))])
    : [];
  const before = cpuOfProcesses(pids);
  const from = monotonicUs();
  const report = await autocannon(base + path, { ...options, seconds });
  const to = monotonicUs();
  const after = cpuOfProcesses(pids);
  const requests = report.requests.total;
  const us = (ms) => ((ms / requests) * 1000).toFixed(0);
  const each = processes.map(
    ({ name }, i) => `${name} ${us(after.own[i].total - before.own[i].total)} (system ${us(after.own[i].system - before.own[i].system)})`,
  );
  const started = [...after.started].reduce((sum, [pid, ms]) => sum + ms - (before.started.get(pid) ?? 0), 0);
  if (after.started.size > 0) each.push(`what they started ${us(started)}`);
  const total = after.own.reduce((sum, cpu, i) => sum + cpu.total - before.own[i].total, 0) + started;
  process.stdout.write(
    `${label} (${method ?? 'GET'} ${path}): ${report.requests.average.toFixed(0)} req/s, ${report.non2xx + report.errors} errors; CPU ${us(total)} µs a request (${each.join(', ')} µs)\n`,
  );
  for (const [name, recorder] of recorders) process.stdout.write(`\n## ${label}: ${name}\n${await recorder.stop()}\n`);
  return { from, to };
}

const workDir = mkdtempSync(join(tmpdir(), 'vault-route-cost-'));
const { mode, cleanup } = await ownMode(which, 3790);
for (const app of mode.apps) {
  if (option('--unbundled')) app.entry = app.entry.replace('/dist/bundle/main.js', '/dist/main.js');
  app.nodeFlags = [
    ...SERVER_NODE_FLAGS,
    ...(option('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${workDir}`, '--cpu-prof-interval=250'] : []),
    ...(option('--perf') ? ['--perf-prof', '--interpreted-frames-native-stack'] : []),
  ];
  if (option('--perf')) {
    // node writes its JIT dump (and perf inject its functions) in the working folder: the run's own, not the repository.
    app.entry = resolve(app.entry);
    app.wrap = ['sh', '-c', 'cd "$0" && exec "$@"', workDir];
  }
}
const running = await startMode(mode);
const processes = mode.apps.map((app, i) => ({ name: /apps\/([\w-]+)\//.exec(app.entry)[1], pid: running.pids[i] }));
const windows = [];
let baseline;
try {
  const cookie = await login(mode.base);
  await seedTargets(mode.base, cookie, SEEDED);
  await seedEntries(mode.base, cookie, SEEDED);
  if (option('--baseline')) {
    baseline = spawn(process.execPath, ['bench/baseline-server.mjs'], {
      env: { ...process.env, DATABASE_URL: mode.apps[0].env.DATABASE_URL, PORT: String(BASELINE_PORT) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`http://127.0.0.1:${BASELINE_PORT}/targets`);
  }
  for (const name of loads) {
    windows.push({ name, ...(await measure(mode.base, LOADS[name], processes, cookie, name, workDir)) });
    if (baseline) {
      const load = LOADS[name];
      const bare = [{ name: 'baseline', pid: baseline.pid }];
      await measure(`http://127.0.0.1:${BASELINE_PORT}`, { ...load, path: load.baseline }, bare, undefined, `${name}, baseline`, workDir);
    }
  }
} finally {
  baseline?.kill('SIGTERM');
  await stopMode(running);
  await cleanup();
}

if (option('--profile')) {
  for (const file of readdirSync(workDir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(workDir, file), 'utf8'));
    const pid = Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]);
    const name = processes.find((app) => app.pid === pid)?.name ?? file;
    for (const window of windows) process.stdout.write(`\n## ${window.name}: ${name}\n${summary(profile, { from: window.from, to: window.to, top: 30 })}`);
  }
}
rmSync(workDir, { recursive: true, force: true });
