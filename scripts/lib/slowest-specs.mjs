// The spec files that take the suite's time, from the reports the tiers
// already write: jest's and vitest's JSON (each file's start and end) and
// Playwright's (each test's duration, summed per file and project). `npm test`
// prints the slowest and keeps the whole table in .test-reports/, so anyone
// sees where the time goes before making a tier faster.
import { relative } from 'node:path';

/** Each file's seconds in a jest or vitest JSON report (both use jest's shape). */
export function jestFileTimes(report, root) {
  return (report.testResults ?? []).map((file) => ({
    file: relative(root, file.name ?? file.testFilePath ?? ''),
    seconds: ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
  }));
}

/** Each file's seconds in a Playwright JSON report, per project (the run mode), its tests' durations added up. */
export function playwrightFileTimes(report) {
  const totals = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const key = `${here} [${test.projectName}]`;
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
        totals.set(key, (totals.get(key) ?? 0) + ms);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...totals].map(([file, ms]) => ({ file: `apps/e2e/tests/${file}`, seconds: ms / 1000 }));
}

/** A Markdown table of the files, slowest first, each with its tier. */
export function slowestTable(rows, limit = Number.POSITIVE_INFINITY) {
  const sorted = [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, limit);
  return ['| s | tier | spec file |', '|---:|---|---|', ...sorted.map((row) => `| ${row.seconds.toFixed(1)} | ${row.tier} | ${row.file} |`)].join('\n');
}
