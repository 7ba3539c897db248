#!/usr/bin/env node
// `npm test`: the whole suite, tier by tier, as CI runs it. Builds first, then
// lint (module boundaries; Biome's formatting and lint rules), typecheck (libs, apps, tests, scripts: 0 errors),
// deploy (the Helm chart), unit (jest + vitest), integration (real PostgreSQL,
// NATS, Redis), end-to-end (Chromium, both run modes). A tier that fails, runs
// no test or skips one fails the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/build.mjs';
import { jestFileTimes, playwrightFileTimes, slowestTable } from './lib/slowest-specs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = `${root}.test-reports`;
// The deploy tests by name: node 20's runner, given their folder, would also run the helper modules there as tests.
const deployTests = readdirSync(`${root}deploy/test`)
  .filter((file) => file.endsWith('.test.mjs'))
  .map((file) => `deploy/test/${file}`);
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/** @type {[string, string[]]} */
const jest = ['node', ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js']];
// --forceExit: a spec that leaves a connection open must fail by its own assertions, not hold the
// run past its report (CI once waited out its whole budget on "Jest did not exit"). 3 workers on
// 2 cores: many specs wait (an outage, a lock's expiry) more than they compute; 276 s, against
// 373 s with 2 and 1,141 s in band (each worker has its own NATS: libs/testing/global/servers.mjs).
const integrationJest = [
  ...jest[1],
  '--selectProjects',
  'integration',
  `--maxWorkers=${process.env.VAULT_IT_WORKERS ?? 3}`,
  '--forceExit',
  '--json',
  `--outputFile=${reports}/integration.json`,
];
// VAULT_IT_SERVERS=containers where no Docker engine answers: the tier runs under podman's Docker API, in a
// network namespace of its own, its images built first (scripts/containers/servers/test.sh; docs/adr/0007).
const throughPodman = process.env.VAULT_IT_SERVERS === 'containers' && !process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock');

const tiers = [
  {
    name: 'lint (module boundaries)',
    quick: true,
    command: 'node',
    args: ['scripts/check-boundaries.mjs', `${reports}/boundaries.json`],
    counts: (r) => ({ ...r, skipped: 0 }),
    report: 'boundaries.json',
  },
  {
    // One check: the tree is formatted as `npm run format` leaves it, and Biome's linter finds nothing (biome.jsonc).
    name: 'lint (Biome: formatting and lint rules, 0 findings)',
    quick: true,
    command: 'npx',
    args: ['biome', 'ci', '--colors=off', '--error-on-warnings', '.'],
    counts: (_report, run) => ({ passed: run.status === 0 ? 1 : 0, failed: run.status === 0 ? 0 : 1, skipped: 0 }),
  },
  {
    // One check: every TypeScript program of `npm run typecheck` compiles with 0 errors.
    name: 'typecheck (libs, apps, tests, scripts)',
    quick: true,
    command: 'npm',
    args: ['run', '--silent', 'typecheck'],
    counts: (_report, run) => ({ passed: run.status === 0 ? 1 : 0, failed: run.status === 0 ? 0 : 1, skipped: 0 }),
  },
  {
    name: 'deploy (helm lint, template, Kubernetes API types)',
    quick: true,
    command: 'node',
    // node's test runner: the tests as they go to the terminal, and TAP (its summary counts) to a file.
    args: [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${reports}/deploy.tap`,
      ...deployTests,
    ],
    counts: () => tapCounts(readFileSync(`${reports}/deploy.tap`, 'utf8')),
  },
  {
    name: 'unit (server, jest)',
    quick: true,
    command: jest[0],
    args: [...jest[1], '--selectProjects', 'unit', '--json', `--outputFile=${reports}/unit.json`],
    counts: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + r.numRuntimeErrorTestSuites, skipped: r.numPendingTests + r.numTodoTests }),
    report: 'unit.json',
    fileTimes: (r) => jestFileTimes(r, root),
  },
  {
    name: 'unit (web, vitest)',
    quick: true,
    command: 'npx',
    args: ['vitest', 'run', '--root', 'apps/web', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/web.json`],
    counts: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + (r.numTodoTests ?? 0) }),
    report: 'web.json',
    fileTimes: (r) => jestFileTimes(r, root),
  },
  {
    name: `integration (PostgreSQL, NATS, Redis${throughPodman ? ', in containers' : ''})`,
    command: throughPodman ? 'bash' : jest[0],
    args: throughPodman ? ['scripts/containers/servers/test.sh', jest[0], ...integrationJest] : integrationJest,
    counts: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + r.numRuntimeErrorTestSuites, skipped: r.numPendingTests + r.numTodoTests }),
    report: 'integration.json',
    fileTimes: (r) => jestFileTimes(r, root),
  },
  {
    name: 'end-to-end (Chromium, embedded + distributed)',
    command: 'npx',
    args: ['playwright', 'test', '-c', 'apps/e2e/playwright.config.ts'],
    // Everything was built before the tiers (ensureBuilt).
    env: { VAULT_E2E_SKIP_BUILD: '1' },
    counts: (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped }),
    report: '../apps/e2e/test-results/results.json',
    fileTimes: playwrightFileTimes,
  },
];

/** The summary lines of a TAP report (node --test): passed, failed, skipped (todo counts as skipped). */
function tapCounts(tap) {
  const count = (word) => Number(new RegExp(`^# ${word} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  return { passed: count('pass'), failed: count('fail') + count('cancelled'), skipped: count('skipped') + count('todo') };
}

await ensureBuilt(root);

const only = process.argv.slice(2);
const selected = tiers.filter((tier) => only.length === 0 || only.some((word) => tier.name.startsWith(word)));
/** Every spec file's time, for the slowest-specs table. */
const fileTimes = [];

/**
 * Runs one tier and judges it. `quiet`: its output is kept and printed in one
 * piece when it ends, so that tiers running side by side do not interleave.
 */
async function runTier(tier, quiet) {
  const started = Date.now();
  const child = spawn(tier.command, tier.args, {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, FORCE_COLOR: '0', ...tier.env },
  });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  const run = await new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: null, signal: error.message }));
    child.on('close', (status, signal) => resolve({ status, signal }));
  });
  if (quiet) process.stdout.write(`\n=== ${tier.name} ===\n${Buffer.concat(output).toString()}`);
  let counts;
  try {
    const report = tier.report ? JSON.parse(readFileSync(`${reports}/${tier.report}`, 'utf8')) : undefined;
    counts = tier.counts(report, run);
    if (tier.fileTimes) fileTimes.push(...tier.fileTimes(report).map((row) => ({ ...row, tier: tier.name })));
  } catch {
    counts = { passed: 0, failed: 0, skipped: 0 };
  }
  const problems = [];
  if (run.status !== 0) problems.push(`exited with ${run.status ?? run.signal}`);
  if (counts.passed + counts.failed === 0) problems.push('ran no test');
  if (counts.skipped > 0) problems.push(`skipped ${counts.skipped}`);
  return { tier: tier.name, ...counts, seconds: Math.round((Date.now() - started) / 1000), problems };
}

// The quick tiers (lint, typecheck, deploy, unit) side by side: each is mostly one busy core
// (tsc alone takes half a minute), so two cores finish them in about the time of the longest.
const quick = selected.filter((tier) => tier.quick);
const results = await Promise.all(quick.map((tier) => runTier(tier, quick.length > 1)));
// Then the heavy tiers, one after the other, each using both cores itself. Side by side they took
// 654 s instead of 526 + 315 in CI, but specs with deadlines failed under the load (200
// concurrent subtractions past an RPC's 1.5 s and a pool's 2 s wait; the browsers at nice 10
// did not help: Chromium sets its processes' priorities itself). Issue 32's closing notes.
for (const tier of selected.filter((t) => !t.quick)) {
  process.stdout.write(`\n=== ${tier.name} ===\n`);
  results.push(await runTier(tier, false));
}

process.stdout.write('\n=== summary ===\n');
for (const r of results) {
  const verdict = r.problems.length === 0 ? 'ok' : `FAILED (${r.problems.join(', ')})`;
  process.stdout.write(
    `${r.tier.padEnd(48)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${String(r.seconds).padStart(4)} s  ${verdict}\n`,
  );
}
if (fileTimes.length > 0) {
  writeFileSync(`${reports}/slowest-specs.md`, `# Spec files by time\n\n${slowestTable(fileTimes)}\n`);
  process.stdout.write(`\n=== the 15 slowest spec files (all in .test-reports/slowest-specs.md) ===\n${slowestTable(fileTimes, 15)}\n`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const broken = results.filter((r) => r.problems.length > 0).length;
process.stdout.write(`tests: ${passed} passed, ${failed + (failed === 0 ? broken : 0)} failed\n`);
process.exit(broken > 0 ? 1 : 0);
