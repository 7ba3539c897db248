// An embedded vault for the bench's own measurements: started on a loopback
// port with its data in a given folder, signed in, seeded through its API.
import { embeddedMode, login, startMode, stopMode } from '../scripts/lib/vault-launcher.mjs';
import { answers200, waitUntil } from '../scripts/lib/wait-until.mjs';

/** Until `url` answers 200; the milliseconds it took. */
export async function waitFor(url, timeoutMs = 120_000) {
  const started = performance.now();
  await waitUntil(url, () => answers200(url), { timeoutMs, intervalMs: 20 });
  return performance.now() - started;
}

/** An embedded vault started by the launcher (scripts/lib/vault-launcher.mjs), ready, with its own sign-in and stop. */
export async function startEmbedded({ port, dataDir, env = {} }) {
  const running = await startMode(embeddedMode({ port, dataDir, env }));
  const base = running.mode.base;
  return { base, child: running.children[0], login: () => login(base), stop: () => stopMode(running) };
}

/** Runs `count` tasks, `concurrency` at a time, in index order. */
export async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

async function post(base, cookie, path, body) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Journal entries `Entry 0`..`Entry n-1` through the API, 16 requests at a time. */
export const seedEntries = (base, cookie, count, concurrency = 16) =>
  inParallel(count, concurrency, (i) => post(base, cookie, '/api/journal', { title: `Entry ${i}`, content: `Field note ${i}\nsecond line` }));

/** Targets `Target 0`..`Target n-1` through the API, 16 requests at a time. */
export const seedTargets = (base, cookie, count, concurrency = 16) =>
  inParallel(count, concurrency, (i) => post(base, cookie, '/api/targets', { title: `Target ${i}`, description: 'Seeded for the benchmark' }));
