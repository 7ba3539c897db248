#!/usr/bin/env node
// What the real-node checks of `npm run test:k8s` prove: the chart, the
// Dockerfiles and the container and cluster scripts. A full passing run writes
// the hash of those files to scripts/k8s/node-verified; CI runs the real-node
// checks again whenever the files no longer match it, and the API-server
// checks alone otherwise (.ci/run).
//
//   node scripts/k8s/node-inputs.mjs --verified   exit 0 when the stamp matches the files
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = 'scripts/k8s/node-verified';
const INPUTS = ['deploy/helm', 'scripts/containers', 'scripts/k8s', 'apps/*/Dockerfile'];

/** The SHA-256 of every input file's path and content, as they are on disk. */
export function nodeInputsHash(root) {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...INPUTS], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr.trim()}`);
  const files = [...new Set(listed.stdout.split('\n').filter((f) => f && f !== STAMP && existsSync(join(root, f))))].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

export function writeNodeStamp(root) {
  writeFileSync(join(root, STAMP), `${nodeInputsHash(root)}\n`);
}

export function nodeStampMatches(root) {
  const stampPath = join(root, STAMP);
  return existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === nodeInputsHash(root);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (process.argv.includes('--verified')) process.exit(nodeStampMatches(root) ? 0 : 1);
  process.stdout.write(`${nodeInputsHash(root)}\n`);
}
