#!/usr/bin/env node
// Two builds of the embedded vault compared by the instructions a request
// costs (callgrind, as bench/metrics-instructions.mjs counts them): on two
// shared cores a throughput moves by 15 % from one round to the next, a
// count by a per cent or two. Each build is a copy of apps/vault/dist/bundle
// at the same depth and under the same name (say apps/vault/ab-before/bundle
// and apps/vault/ab-after/bundle: the bundle finds the repository's files,
// and main.js its vault.js, from its own place), each load on a
// vault of its own, the builds in alternating order, the lowest count of
// each kept (metrics-instructions.mjs says why).
//
//   node bench/instructions-ab.mjs apps/vault/ab-before/bundle apps/vault/ab-after/bundle [rounds] [load...]
//
// Loads by name: trivial-read, create-target, list-targets, create-entry,
// list-entries (all of them when none is named).
import { rmSync } from 'node:fs';
import { countLoad, seededData } from './metrics-instructions.mjs';
import { ensureDebianTool } from './process-tree.mjs';

const ENTRY = JSON.stringify({ title: 'Field note', content: 'What the day held\nsecond line' });
const LOADS = {
  'trivial-read': { label: 'GET /api/user', path: '/api/user' },
  'create-target': { label: 'POST /api/targets', path: '/api/targets', method: 'POST', body: JSON.stringify({ title: 'Benchmark target' }) },
  'list-targets': { label: 'GET /api/targets (100)', path: '/api/targets' },
  'create-entry': { label: 'POST /api/journal', path: '/api/journal', method: 'POST', body: ENTRY },
  'list-entries': { label: 'GET /api/journal?limit=50 (of 100)', path: '/api/journal?limit=50' },
};

const [before, after, roundsArg, ...named] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: node bench/instructions-ab.mjs BEFORE_DIR AFTER_DIR [rounds] [load...]');
const rounds = Number(roundsArg ?? 2);
const loads = (named.length > 0 ? named : Object.keys(LOADS)).map((name) => {
  if (!LOADS[name]) throw new Error(`no load named ${name}: ${Object.keys(LOADS).join(', ')}`);
  return LOADS[name];
});
ensureDebianTool('valgrind', 'valgrind', 'the A/B bench counts instructions with callgrind');
const builds = { before: `${before}/main.js`, after: `${after}/main.js` };
// Entries go on the journal's first page, 100 of them: the list is one page of 50.
const seedDir = await seededData(100);
try {
  for (const load of loads) {
    const counts = { before: [], after: [] };
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 === 0 ? ['before', 'after'] : ['after', 'before'])
        counts[side].push((await countLoad({ env: { VAULT_METRICS: 'false' }, entry: builds[side] }, seedDir, load)).perRequest);
    const lowest = (side) => Math.min(...counts[side]);
    const mega = (values) => values.map((v) => (v / 1e6).toFixed(3)).join(', ');
    const change = (lowest('after') / lowest('before') - 1) * 100;
    process.stdout.write(
      `${load.label}: before ${mega(counts.before)} M, after ${mega(counts.after)} M instructions a request; ${change >= 0 ? '+' : ''}${change.toFixed(1)} %\n`,
    );
  }
} finally {
  rmSync(seedDir, { recursive: true, force: true });
}
