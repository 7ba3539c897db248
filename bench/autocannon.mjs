// autocannon in a process of its own, so that the bench's process stays free
// to sample memory and CPU while the load runs: its JSON report.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * `connections` at once on `url` for `seconds`, after `warmupSeconds` of
 * the same load whose figures are dropped (every system measured the same
 * way: the JIT compiles a route's path during its first requests, and a
 * longer path has more to compile); the report as autocannon gives it with
 * -j (requests.average, latency.p50 and p99, errors, non2xx).
 * @param {string} url
 * @param {{ connections: number, seconds: number, warmupSeconds?: number, cookie?: string, method?: string, body?: string }} options
 */
export async function autocannon(url, { warmupSeconds = 0, ...options }) {
  if (warmupSeconds > 0) await run(url, { ...options, seconds: warmupSeconds });
  return run(url, options);
}

/** @param {string} url @param {{ connections: number, seconds: number, cookie?: string, method?: string, body?: string }} options */
function run(url, { connections, seconds, cookie = undefined, method = 'GET', body = undefined }) {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', String(connections), '-d', String(seconds), '-m', method];
  if (cookie) args.push('-H', `cookie=${cookie}`);
  if (body) args.push('-H', 'content-type=application/json', '-b', body);
  args.push(url);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`autocannon on ${url} exited with ${code} and no report`));
      }
    }),
  );
}
