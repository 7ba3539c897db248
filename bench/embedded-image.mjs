#!/usr/bin/env node
// The embedded image as a self-hoster meets it: its size, and the time from
// `podman start` to the first 200 on /health/ready, the first time on a new
// volume (the database made) and again on that volume with data (the median of
// five). Built here first (scripts/containers/build-images.mjs --embedded,
// unchanged images kept). Prints one JSON line.
import { spawnSync } from 'node:child_process';
import { buildEmbeddedImage, containersEnv } from '../scripts/containers/build-images.mjs';
import { freePort } from '../scripts/lib/free-port.mjs';
import { answers200, waitUntil } from '../scripts/lib/wait-until.mjs';

const RESTARTS = 5;
const env = containersEnv();
const name = `vault-image-bench-${process.pid}`;
const volume = `${name}-data`;

function podman(args, { allowFail = false } = {}) {
  const result = spawnSync('podman', args, { env, encoding: 'utf8' });
  if (result.status !== 0 && !allowFail) throw new Error(`podman ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Milliseconds from `podman start` to the first 200, polled every 10 ms. */
async function startToReady(port) {
  const started = performance.now();
  podman(['start', name]);
  const url = `http://127.0.0.1:${port}/health/ready`;
  await waitUntil(url, () => answers200(url), { timeoutMs: 60_000, intervalMs: 10 });
  return performance.now() - started;
}

const image = buildEmbeddedImage({ log: (line) => process.stderr.write(`${line}\n`) });
const port = await freePort();
try {
  podman(['volume', 'create', volume]);
  podman(['create', '--name', name, '--read-only', '--env', 'HOST=127.0.0.1', '--env', `PORT=${port}`, '--volume', `${volume}:/data`, image]);
  const firstRunMs = await startToReady(port);
  const restartsMs = [];
  for (let i = 0; i < RESTARTS; i++) {
    podman(['stop', name]);
    restartsMs.push(await startToReady(port));
  }
  restartsMs.sort((a, b) => a - b);
  const sizeMb = Number(podman(['image', 'inspect', image, '--format', '{{.Size}}'])) / 1e6;
  process.stdout.write(`${JSON.stringify({ image, sizeMb, firstRunMs, startMs: restartsMs[Math.floor(RESTARTS / 2)], restartsMs })}\n`);
} finally {
  podman(['rm', '--force', '--time', '0', name], { allowFail: true });
  podman(['volume', 'rm', '--force', volume], { allowFail: true });
}
