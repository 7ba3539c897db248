#!/usr/bin/env node
// The journal search part of `npm run bench` (issue 34), for one run mode
// (`node --expose-gc bench/search.mjs embedded|distributed`): a vault
// holding 10,000 entries of realistic lengths in several scripts, stored
// through its API; one user's searches (words common and rare, phrases,
// accents folded) timed through HTTP; the first search after a restart (the
// index built from every entry); the resident memory of the process holding
// the index, empty and with every entry; and the heap the index holds, built
// here from the same entries with journal-svc's own SearchIndex. Prints one
// JSON line.
import { SearchIndex } from '../libs/journal/dist/search/search-index.js';
import { batchFolder, SEARCH_PAGE_SIZE, searchTerms } from '@vault/contracts';
import { login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { ownMode } from './own-mode.mjs';
import { processMemory } from './process-tree.mjs';
import { inParallel } from './vault-process.mjs';

const ENTRIES = Number(process.env.BENCH_SEARCH_ENTRIES ?? 10_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 200);
const PORT = Number(process.env.BENCH_SEARCH_PORT ?? 3741);

/** Words of a journal in English, French, German, Greek and Japanese: accents and scripts a search must fold or keep. */
const WORDS = [
  ...'the a and to of in it was we met at by for on night day harbour courier door red quiet street rain coffee train letter city river bridge market'.split(
    ' ',
  ),
  ...'café crème été élève forêt naïve château rendez-vous fenêtre'.split(' '),
  ...'Straße Größe über Mädchen Brücke schön'.split(' '),
  ...'θάλασσα νύχτα πόλη δρόμος'.split(' '),
  ...'東京 夜 雨 手紙 駅'.split(' '),
];
/** A generator of the same text every run (a linear congruential one). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** An entry of 40 to 400 words (about 200 B to 2.5 KB), in lines; every 100th holds a rare word. */
function entryText(n) {
  const next = random(n + 1);
  const words = Array.from({ length: 40 + Math.floor(next() * 360) }, () => WORDS[Math.floor(next() * WORDS.length)]);
  if (n % 100 === 0) words.splice(Math.floor(words.length / 2), 0, `Kestrelmark${n}`);
  const lines = [];
  for (let i = 0; i < words.length; i += 12) lines.push(words.slice(i, i + 12).join(' '));
  return { title: `Entry ${n}: ${words.slice(0, 3).join(' ')}`, content: lines.join('\n') };
}

const QUERIES = ['harbour', 'cafe', 'STRASSE', '"the red door"', 'courier night', 'θαλασσα', '東京', 'Kestrelmark4200', 'absentword', 'train letter bridge'];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function search(base, cookie, query) {
  const started = performance.now();
  const response = await fetch(`${base}/api/journal/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, limit: SEARCH_PAGE_SIZE }),
  });
  const found = await response.json();
  if (response.status !== 200) throw new Error(`search ${query}: ${response.status} ${JSON.stringify(found)}`);
  return { ms: performance.now() - started, found: found.length };
}

/** The heap the index of these entries holds, built as journal-svc builds it (one batchFolder for the build). */
function indexMemory() {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const index = new SearchIndex();
  const started = performance.now();
  const fold = batchFolder();
  for (let n = 0; n < ENTRIES; n++) index.put({ id: String(n), createdAt: new Date(n * 1000), ...entryText(n) }, fold);
  index.match(searchTerms('warm'), 0, 1);
  const buildMs = performance.now() - started;
  globalThis.gc();
  const heldMb = (process.memoryUsage().heapUsed - before) / 1024 ** 2;
  return { heldMb, foldMs: buildMs, size: index.size };
}

/**
 * Stops and starts again the process that holds the search index, the rest
 * left running: the vault, or journal-svc in the distributed mode (as a
 * replica that starts builds its own index). `onStopped` is called between.
 */
async function restartIndexHolder(running, onStopped) {
  const at = holderAt(running);
  if (running.mode.apps.length === 1) {
    await stopMode(running);
    onStopped();
    return startMode(running.mode);
  }
  const holder = { ...running.mode, apps: [running.mode.apps[at]], readyUrls: [running.mode.readyUrls[at]] };
  await stopMode({ mode: holder, children: [running.children[at]], pids: [running.pids[at]] });
  onStopped();
  const restarted = await startMode(holder);
  running.children[at] = restarted.children[0];
  running.pids[at] = restarted.pids[0];
  return running;
}

/** The process that holds the search index: journal-svc in the distributed mode, the vault in the embedded one. */
const holderAt = (running) =>
  Math.max(
    0,
    running.mode.apps.findIndex((app) => app.entry.startsWith('apps/journal-svc/')),
  );

/** Its resident memory now, in MB (its own, not its children's: the embedded vault's PostgreSQL holds no index). */
function holderRssMb(running) {
  const memory = processMemory(running.pids[holderAt(running)]);
  if (!memory) throw new Error('the process holding the search index is gone');
  return memory.rssMb;
}

async function main(which) {
  const { mode, cleanup } = await ownMode(which, PORT);
  let running = await startMode(mode);
  try {
    let cookie = await login(mode.base);
    // The same vault with nothing to index: after a sign-in and a search, as below.
    await search(mode.base, cookie, 'harbour');
    const emptyRssMb = holderRssMb(running);
    const seedStarted = performance.now();
    await inParallel(ENTRIES, 16, async (n) => {
      const response = await fetch(`${mode.base}/api/journal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(entryText(n)),
      });
      if (response.status !== 201) throw new Error(`seed: ${response.status}`);
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // After a restart the index is built from every entry; the first search waits for it.
    let restarted = 0;
    running = await restartIndexHolder(running, () => (restarted = performance.now()));
    const readyMs = performance.now() - restarted;
    cookie = await login(mode.base);
    await search(mode.base, cookie, 'harbour');
    const firstSearchMs = performance.now() - restarted;

    const times = [];
    const found = {};
    /** Each query's times: its median shows which kind of search costs what. */
    const byQuery = {};
    for (let i = 0; i < SEARCHES; i++) {
      const query = QUERIES[i % QUERIES.length];
      const result = await search(mode.base, cookie, query);
      times.push(result.ms);
      found[query] = result.found;
      byQuery[query] ??= [];
      byQuery[query].push(result.ms);
    }
    times.sort((a, b) => a - b);
    const indexedRssMb = holderRssMb(running);
    const medians = Object.fromEntries(
      Object.entries(byQuery).map(([query, ms]) => [
        query,
        Number(
          percentile(
            ms.sort((a, b) => a - b),
            50,
          ).toFixed(1),
        ),
      ]),
    );
    const memory = indexMemory();
    process.stdout.write(
      `${JSON.stringify({ mode: which, entries: ENTRIES, seedSeconds, readyMs, firstSearchMs, p50: percentile(times, 50), p95: percentile(times, 95), searches: SEARCHES, found, medians, emptyRssMb, indexedRssMb, ...memory })}\n`,
    );
  } finally {
    await stopMode(running);
    await cleanup();
  }
}

await main(process.argv[2] ?? 'embedded');
