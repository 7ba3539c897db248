#!/usr/bin/env node
// The browser's side of a page load, for docs/perf/profiles.md: a Chromium
// performance trace of `/` on a fresh embedded vault (signed out: the login
// screen; signed in: the dashboard), summarised as the main thread's long
// tasks (over 8 ms, unthrottled) with what they spent their time on, and the
// page's own paint and request timings.
//
//   node bench/page-trace.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './browser.mjs';
import { startEmbedded } from './vault-process.mjs';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading'];
const log = (line) => process.stdout.write(`${line}\n`);

/** Long tasks on the main thread of the page's renderer, each with its biggest kinds of work. */
function longTasks(events, base) {
  // The renderer that loaded the page: the one whose main thread parsed its HTML.
  const parse = events.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url ?? '').startsWith(base));
  if (!parse) throw new Error(`no ParseHTML of ${base} in the trace`);
  const start = Math.min(
    ...events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.name === 'RunTask' && e.ts + e.dur >= parse.ts).map((e) => e.ts),
  );
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === parse.pid && e.tid === parse.tid);
  return onMain
    .filter((e) => e.name === 'RunTask' && e.dur > 8000 && e.ts >= start)
    .sort((a, b) => a.ts - b.ts)
    .map((task) => {
      const work = new Map();
      for (const e of onMain) {
        if (e === task || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur || e.dur < 1000 || e.name === 'RunTask') continue;
        const url = e.args?.data?.url ? ` ${e.args.data.url.replace(/.*\//, '')}` : '';
        work.set(`${e.name}${url}`, (work.get(`${e.name}${url}`) ?? 0) + e.dur);
      }
      const top = [...work]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([name, dur]) => `${name} ${(dur / 1000).toFixed(0)}`);
      return `  at ${((task.ts - start) / 1000).toFixed(0).padStart(5)} ms: ${(task.dur / 1000).toFixed(0).padStart(4)} ms  ${top.join(', ')}`;
    });
}

const dataDir = mkdtempSync(join(tmpdir(), 'vault-page-trace-'));
const vault = await startEmbedded({ port: 3735, dataDir });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const cookie = await vault.login();
  for (const [name, signedIn] of [
    ['login screen', false],
    ['dashboard', true],
  ]) {
    const context = await browser.newContext();
    if (signedIn) {
      const [cookieName, value] = cookie.split('=');
      await context.addCookies([{ name: cookieName, value, domain: '127.0.0.1', path: '/' }]);
    }
    const page = await context.newPage();
    await page.goto('about:blank');
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(`${vault.base}/`, { waitUntil: 'networkidle' });
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    const paint = await page.evaluate(() => performance.getEntriesByType('paint').map((p) => `${p.name} ${p.startTime.toFixed(0)} ms`));
    log(`== ${name}: ${paint.join(', ')}; main-thread tasks over 8 ms (name of work, ms):`);
    for (const line of longTasks(events, vault.base)) log(line);
    await context.close();
  }
} finally {
  await browser.close();
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
