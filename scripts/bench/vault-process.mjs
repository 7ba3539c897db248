// An embedded vault for the bench's own measurements: started on a loopback
// port with its data in a given folder, signed in, seeded through its API.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_OWNER = { username: 'bench', password: 'bench-password-123', name: 'Bench' };

export async function waitFor(url, timeoutMs = 120_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - started;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export async function login(base) {
  const response = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: BENCH_OWNER.username, password: BENCH_OWNER.password }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.headers.get('set-cookie').split(';')[0];
}

export async function startEmbedded({ port, dataDir, env = {} }) {
  const child = spawn(process.execPath, ['apps/vault/dist/bundle/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      VAULT_DATA_DIR: dataDir,
      VAULT_OWNER_USERNAME: BENCH_OWNER.username,
      VAULT_OWNER_PASSWORD: BENCH_OWNER.password,
      VAULT_OWNER_NAME: BENCH_OWNER.name,
      VAULT_LOGIN_RATE_LIMIT: '10000',
      ...env,
    },
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health/ready`);
  return {
    base,
    child,
    login: () => login(base),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
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
