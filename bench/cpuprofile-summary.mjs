#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`, or the inspector's
// Profiler) as text: the functions and the packages with the most self time,
// and the functions with the most time on the stack (inclusive), in % of the
// samples. Usage: node bench/cpuprofile-summary.mjs FILE [TOP]
// route-cost.mjs uses `summary` on the samples of one load's window only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package, or the project's lib or app, a script URL belongs to. */
const where = (url) => {
  if (!url) return '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node (internal)';
  if (url.startsWith('wasm:')) return 'WebAssembly';
  return url
    .replace(/^file:\/\/.*?\/(libs|apps)\//, '$1/')
    .split('/')
    .slice(0, 2)
    .join('/');
};

/**
 * The profile's text summary; `from` and `to` (µs, the profile's own clock:
 * CLOCK_MONOTONIC for `--cpu-prof`) keep only the samples taken between them.
 * @param {{ nodes: any[], samples: number[], timeDeltas: number[], startTime: number }} profile
 * @param {{ from?: number, to?: number, top?: number }} [options]
 */
export function summary(profile, { from = -Infinity, to = Infinity, top = 25 } = {}) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const file = url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/(libs|apps)\//, '$1/');
    return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
  };
  const byFunction = new Map();
  const byPackage = new Map();
  const inclusive = new Map();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    total += delta;
    const fn = label(id);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
    const { functionName, url } = nodes.get(id).callFrame;
    const pkg = where(url) || functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta);
    const onStack = new Set();
    for (let node = id; node !== undefined; node = parent.get(node)) onStack.add(label(node));
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
  });
  const list = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`);
  return `${(total / 1e6).toFixed(1)} s sampled\n\nself time by function:\n${list(byFunction, top).join('\n')}\n\nself time by package:\n${list(byPackage, 15).join('\n')}\n\ninclusive time by function:\n${list(inclusive, top).join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  process.stdout.write(summary(profile, { top: Number(process.argv[3] ?? 25) }));
}
