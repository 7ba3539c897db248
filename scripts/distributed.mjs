#!/usr/bin/env node
// Distributed mode on one machine: the gateway and each service as its own
// process, talking over NATS, with PostgreSQL and Redis from the environment
// (local defaults below). Ctrl-C stops them all. DATABASE_URL is the
// administrator's (a superuser): the services never get it, each connects as
// its own role, which owns its schema only (docs/adr/0008).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/build.mjs';
import { masterKeyFromFile } from './lib/master-key.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuilt(root);
// Loaded once built: these read the services' list from the compiled contracts, which need TypeScript (a fresh clone has neither).
const { ensureDatabase, provisionServiceDatabases } = await import('./lib/database.mjs');
const { VAULT_SERVICES } = await import('./lib/services.mjs');
const { appEntry, spawnApp } = await import('./lib/vault-launcher.mjs');
const env = {
  ...process.env,
  VAULT_MODE: 'distributed',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  // On one machine the journal's master key may live in a file beside the data, as in embedded mode.
  VAULT_MASTER_KEY: process.env.VAULT_MASTER_KEY ?? masterKeyFromFile(process.env.VAULT_DATA_DIR ?? './data'),
  // The local MinIO of scripts/s3-server/start.sh unless a bucket is named.
  S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9000',
  S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? 'vault-test',
  S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret',
};
const gatewayPort = Number(process.env.PORT ?? 3000);

/** Each service answers its health check on its own port; the gateway on PORT. */
export const processes = [
  ...VAULT_SERVICES.map(({ app, healthPortOffset }) => ({ name: app, entry: appEntry(app), port: gatewayPort + healthPortOffset })),
  { name: 'gateway', entry: appEntry('gateway'), port: gatewayPort },
];

await ensureDatabase(env.DATABASE_URL);
// A <SERVICE>_DATABASE_URL set by hand wins; every other service gets its provisioned role.
const serviceUrls = await provisionServiceDatabases(env.DATABASE_URL);
for (const [name, url] of Object.entries(serviceUrls)) env[name] = process.env[name] ?? url;
delete env.DATABASE_URL;
if (!process.env.S3_ENDPOINT) {
  const s3 = spawnSync('bash', ['scripts/s3-server/start.sh'], { cwd: root, stdio: 'inherit' });
  if (s3.status !== 0) process.exit(s3.status ?? 1);
}

const children = processes.map(({ name, entry, port }) => {
  const child = spawnApp({ entry, env: { ...env, PORT: String(port) } }, { environment: 'inherit', stdio: ['ignore', 'inherit', 'inherit'] });
  // Like a cluster, the others keep serving when one process dies: the gateway answers 503 for its routes.
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`${name} exited (${signal ?? code}); the others keep running\n`);
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(stopping ? 0 : 1);
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
