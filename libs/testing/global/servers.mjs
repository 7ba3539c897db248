// The integration suite's servers, chosen once per run (Jest loads global
// setup outside its ESM/TypeScript pipeline, hence plain JavaScript here).
// With a container engine, testcontainers starts them; otherwise the servers
// named in the environment (or the local defaults) must answer.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { waitUntil } from '../../../scripts/lib/wait-until.mjs';

export const ENV_KEYS = {
  databaseUrl: 'VAULT_IT_DATABASE_URL',
  // One NATS per Jest worker (comma-separated, worker N takes the Nth): the services of two
  // distributed stacks on one broker would share queue groups and durable consumers.
  natsUrls: 'VAULT_IT_NATS_URLS',
  redisUrl: 'VAULT_IT_REDIS_URL',
  s3Endpoint: 'VAULT_IT_S3_ENDPOINT',
  s3AccessKey: 'VAULT_IT_S3_ACCESS_KEY',
  s3SecretKey: 'VAULT_IT_S3_SECRET_KEY',
};

/**
 * Whether to start the servers with testcontainers: VAULT_IT_SERVERS names the
 * choice (`containers` or `environment`); otherwise a Docker engine that
 * answers decides (DOCKER_HOST, or /var/run/docker.sock).
 */
export function containerEngineAvailable() {
  const choice = process.env.VAULT_IT_SERVERS;
  if (choice === 'environment') return false;
  const host = process.env.DOCKER_HOST;
  const found = host ? (host.startsWith('unix://') ? existsSync(host.slice('unix://'.length)) : true) : existsSync('/var/run/docker.sock');
  if (choice === 'containers' && !found) {
    throw new Error(
      `VAULT_IT_SERVERS=containers, but no container engine answers (DOCKER_HOST ${host ?? 'unset'}, no /var/run/docker.sock). ` +
        'Without Docker: npm run test:integration:containers (podman, README "Tests").',
    );
  }
  if (choice && choice !== 'containers') throw new Error(`VAULT_IT_SERVERS must be "containers" or "environment", not "${choice}"`);
  return found;
}

/**
 * The servers named in the environment (or the local defaults). The first
 * worker takes NATS_URL; each further one a nats-server of its own, started
 * here on a free port (removed by stopServers).
 */
export async function fromEnvironment(workers = 1) {
  const natsUrls = [process.env.NATS_URL ?? 'nats://127.0.0.1:4222'];
  while (natsUrls.length < workers) natsUrls.push(await startPrivateNats());
  return {
    source: 'environment',
    databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    natsUrls: natsUrls.join(','),
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    // The MinIO of scripts/s3-server/start.sh, unless another S3-compatible server is named.
    s3Endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    s3AccessKey: process.env.S3_ACCESS_KEY_ID ?? 'vault-test',
    s3SecretKey: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret',
  };
}

/**
 * The server images. VAULT_IT_IMAGES=local (set by
 * scripts/containers/with-podman-api.sh): the images this machine builds from
 * Debian's packages (scripts/containers/servers/build.sh), under localhost/
 * names that no registry serves. Otherwise the official images at the same
 * versions, which a Docker engine pulls. VAULT_IT_<SERVER>_IMAGE overrides one.
 */
export function serverImages() {
  const local = process.env.VAULT_IT_IMAGES === 'local';
  const pick = (name, localImage, officialImage) => process.env[`VAULT_IT_${name}_IMAGE`] ?? (local ? localImage : officialImage);
  return {
    postgres: pick('POSTGRES', 'localhost/vault-it-postgres:15', 'postgres:15-bookworm'),
    nats: pick('NATS', 'localhost/vault-it-nats:2.9', 'nats:2.9'),
    redis: pick('REDIS', 'localhost/vault-it-redis:7.0', 'redis:7.0-bookworm'),
    minio: pick('MINIO', 'localhost/vault-it-minio:latest', 'minio/minio:RELEASE.2025-09-07T16-13-09Z'),
  };
}

/**
 * Every container this run starts carries it; scripts/containers/with-podman-api.sh
 * names the run (VAULT_IT_RUN) and looks for its leftovers by it.
 */
export const CONTAINER_LABELS = { 'vault.integration': process.env.VAULT_IT_RUN ?? 'true' };

/** What this run started (containers, or nats-server processes): stopServers removes them. */
const started = [];

async function startPrivateNats() {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'vault-it-nats-'));
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
  const failed = new Promise((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`nats-server could not start (${error.message}): a second Jest worker needs one of its own (or run --runInBand)`)),
    );
    child.once('exit', (code) => reject(new Error(`nats-server exited (${code}) on port ${port}`)));
  });
  const url = `nats://127.0.0.1:${port}`;
  await Promise.race([untilOpen(url), failed]);
  started.push({
    name: `nats-server ${url}`,
    stop: async () => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
      rmSync(store, { recursive: true, force: true });
    },
  });
  return url;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function untilOpen(url, timeoutMs = 10_000) {
  return waitUntil(`${url} to open`, () => tcpProbe(url).then(() => true), { timeoutMs, intervalMs: 50 });
}

export async function startContainers(workers = 1) {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RedisContainer } = await import('@testcontainers/redis');
  const images = serverImages();
  const log = (line) => process.stdout.write(`  ${line}\n`);
  log(`testcontainers: PostgreSQL ${images.postgres}, NATS ${images.nats}, Redis ${images.redis}, MinIO ${images.minio}`);
  const startOne = async (name, container, ready = async () => {}) => {
    const begun = Date.now();
    const running = await container.withLabels(CONTAINER_LABELS).withNetworkMode('bridge').start();
    started.push({
      name: `container ${running.getId().slice(0, 12)} ${running.getName().replace(/^\//, '')}`,
      // testcontainers' stop removes it, with its volumes.
      stop: () => running.stop(),
    });
    await ready(running);
    log(`started container ${running.getId().slice(0, 12)} ${running.getName().replace(/^\//, '')} (${name}) in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
    return running;
  };
  // The readiness of each, seen from here: a log line, an HTTP answer, a
  // connection. Not the images' health checks (podman runs those from systemd
  // timers, absent in CI), nor checks that exec into the container (podman
  // keeps a process per exec for minutes after).
  const results = await Promise.allSettled([
    startOne(
      'PostgreSQL',
      new PostgreSqlContainer(images.postgres)
        // Durability is not under test: no fsync, as the test servers of CI images do.
        .withCommand(['postgres', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'])
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/)),
      // The official image logs that line once for its init-time server too: connect to be sure.
      (postgres) => untilConnects(postgres.getConnectionUri()),
    ),
    startOne('Redis', new RedisContainer(images.redis)),
    startOne(
      'MinIO',
      new GenericContainer(images.minio)
        .withCommand(['server', '/data'])
        .withEnvironment({ MINIO_ROOT_USER: 'vault-test', MINIO_ROOT_PASSWORD: 'vault-test-secret' })
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000)),
    ),
    ...Array.from({ length: workers }, (_, worker) =>
      startOne(
        `NATS of worker ${worker + 1}`,
        new GenericContainer(images.nats)
          .withCommand(['-js'])
          .withExposedPorts(4222)
          .withWaitStrategy(Wait.forLogMessage(/Server is ready/)),
      ),
    ),
  ]);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) {
    // No teardown follows a failed setup: remove what did start, then fail.
    await stopServers();
    const hint = process.env.VAULT_IT_IMAGES === 'local' ? '\nThe local images are made by: bash scripts/containers/servers/build.sh' : '';
    throw new Error(`testcontainers could not start every server:\n  ${failed.map((r) => r.reason?.message ?? r.reason).join('\n  ')}${hint}`);
  }
  const [postgres, redis, minio, ...nats] = results.map((r) => r.value);
  return {
    source: 'testcontainers',
    databaseUrl: postgres.getConnectionUri(),
    natsUrls: nats.map((server) => `nats://${server.getHost()}:${server.getMappedPort(4222)}`).join(','),
    redisUrl: redis.getConnectionUrl(),
    s3Endpoint: `http://${minio.getHost()}:${minio.getMappedPort(9000)}`,
    s3AccessKey: 'vault-test',
    s3SecretKey: 'vault-test-secret',
  };
}

function untilConnects(url, timeoutMs = 60_000) {
  return waitUntil(
    `PostgreSQL at ${redact(url)} to accept a connection`,
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/** Removes every container and stops every server this run started. */
export async function stopServers() {
  const problems = [];
  for (const server of started.splice(0)) {
    try {
      await server.stop();
      process.stdout.write(`  removed ${server.name}\n`);
    } catch (error) {
      problems.push(`${server.name}: ${error.message}`);
    }
  }
  if (problems.length > 0) throw new Error(`servers not removed:\n  ${problems.join('\n  ')}`);
}

/** Fails loudly, naming every server that does not answer, instead of skipping tests. */
export async function assertReachable(servers) {
  const problems = [];
  try {
    const client = new pg.Client({ connectionString: servers.databaseUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  } catch (error) {
    problems.push(`PostgreSQL at ${servers.databaseUrl}: ${error.message}`);
  }
  for (const [name, url] of [
    ...servers.natsUrls.split(',').map((url) => ['NATS', url]),
    ['Redis', servers.redisUrl],
    ['S3 (scripts/s3-server/start.sh)', servers.s3Endpoint],
  ]) {
    try {
      await tcpProbe(url);
    } catch (error) {
      problems.push(`${name} at ${url}: ${error.message}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `Integration tests need real servers and these do not answer:\n  ${problems.join('\n  ')}\n` +
        'Start them (README, "Tests"), or provide a Docker engine for testcontainers.',
    );
  }
}

function tcpProbe(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('no answer within 2 s'));
    });
    socket.once('error', reject);
  });
}

export function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
