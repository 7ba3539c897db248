#!/usr/bin/env node
// Summarises a `perf record -g` of a node process (cpu-clock samples, the
// JIT's functions named by `perf inject --jit` from node's --perf-prof dump)
// as text: each sample charged to the nearest JavaScript function on its
// stack (with the native code, builtins and kernel work it called), by
// layer of the request path, by file and by function, in % of the samples.
// route-cost.mjs --perf prints it per load and process.
//
//   node bench/perf-summary.mjs FILE [TOP]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The layers of a request's path, by the file its nearest JavaScript frame is in (first match wins). @type {[string, RegExp][]} */
const LAYERS = [
  ['garbage collector and V8 threads', /^\(gc/],
  ['socket writes', /streams\/writable|stream_base_commons|_http_outgoing/],
  ['socket reads, HTTP parsing, event loop', /_http_server|_http_common|_http_incoming|streams\/readable|no JavaScript on the stack/],
  ['async_hooks (AsyncLocalStorage)', /async_hooks|async_local_storage/],
  ['fastify', /^fastify\/|find-my-way|@fastify\/|avvio|secure-json-parse/],
  ["Nest's HTTP layer", /@nestjs\/core|@nestjs\/platform-fastify|reflect-metadata|@nestjs\/common/],
  ['gateway', /libs\/gateway/],
  ['transport (rxjs, Nest microservices, NATS client)', /rxjs|@nestjs\/microservices|libs\/transport|@nats-io/],
  ['zod', /zod\//],
  ['drizzle', /drizzle-orm/],
  ['pg', /^pg|pg-protocol|pg-pool|pg-types|postgres-/],
  ['crypto', /crypto/],
  ['observability', /observability|prom-client|libs\/platform/],
  ['domain libs', /libs\/(planner|journal|auth|audit|media)/],
  ['node, other', /^node:/],
];
const GC = /Scaveng|Heap::|GC|Mark|Sweep|Evacuat|Concurrent/;

/** A JIT frame's name, without V8's tier mark and the repository's path. */
const jsName = (frame) =>
  frame
    .replace(/^JS:[*~^]?/, '')
    .replace(/file:\/\//, '')
    .replace(/\/\S*?\/node_modules\//, '')
    .replace(/\/\S*?\/((libs|apps)\/)/, '$1');
/** The file of a JIT frame's name: the function's name and position taken off. */
const fileOf = (name) => name.replace(/^.*?\s(?=\S+:\d+:\d+$)/, '').replace(/:\d+:\d+$/, '');

/** @param {string} file @param {NodeJS.ProcessEnv} [env] perf's (its PERF_BUILDID_DIR) @param {number} [top] */
export function perfSummary(file, env = process.env, top = 30) {
  const script = spawnSync('perf', ['script', '-i', file, '-F', 'ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30, env });
  if (script.status !== 0) throw new Error(`perf script -i ${file}: ${script.stderr}`);
  const samples = script.stdout.split('\n\n').filter((sample) => sample.trim());
  const byLayer = new Map();
  const byFile = new Map();
  const byFunction = new Map();
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const sample of samples) {
    const frames = sample
      .split('\n')
      .map((line) =>
        line
          .trim()
          .replace(/^[0-9a-f]+\s+/, '')
          .replace(/\s+\(.*\)$/, ''),
      )
      .filter(Boolean);
    const nearest = frames.find((frame) => frame.startsWith('JS:'));
    const name = nearest ? jsName(nearest) : GC.test(sample) ? '(gc / V8 threads)' : `(no JavaScript on the stack: ${frames.at(-1)?.slice(0, 40)})`;
    const inFile = nearest ? fileOf(name) : name;
    add(byFunction, name);
    add(byFile, inFile);
    add(byLayer, (LAYERS.find(([, pattern]) => pattern.test(inFile)) ?? ['other'])[0]);
  }
  const list = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, count]) => `${((100 * count) / samples.length).toFixed(1).padStart(5)}%  ${key.slice(0, 140)}`)
      .join('\n');
  return `${samples.length} samples, each charged to the nearest JavaScript function on its stack\n\nby layer:\n${list(byLayer, LAYERS.length + 1)}\n\nby file:\n${list(byFile, top)}\n\nby function:\n${list(byFunction, top)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(perfSummary(process.argv[2], process.env, Number(process.argv[3] ?? 30)));
