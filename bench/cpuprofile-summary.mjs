#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`, or the inspector's
// Profiler) as text: the functions and the packages with the most self time,
// in % of the profile. Usage: node bench/cpuprofile-summary.mjs FILE [TOP]
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 25);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  total += delta;
});

const where = (url) => {
  if (!url) return '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node (internal)';
  if (url.startsWith('wasm:')) return 'WebAssembly (PGlite)';
  return url
    .replace(/^file:\/\/.*?\/(libs|apps)\//, '$1/')
    .split('/')
    .slice(0, 2)
    .join('/');
};
const byFunction = new Map();
const byPackage = new Map();
for (const [id, time] of selfTime) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const file = url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/(libs|apps)\//, '$1/');
  const fn = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
  const pkg = where(url) || functionName;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
}
const list = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`);
process.stdout.write(
  `${(total / 1e6).toFixed(1)} s sampled\n\nself time by function:\n${list(byFunction, top).join('\n')}\n\nself time by package:\n${list(byPackage, 15).join('\n')}\n`,
);
