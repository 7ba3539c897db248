// The integration suite's servers, chosen once per run (Jest loads global
// setup outside its ESM/TypeScript pipeline, hence plain JavaScript here).
// With a container engine, testcontainers starts them; otherwise the servers
// named in the environment (or the local defaults) must answer.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';

export const ENV_KEYS = {
  databaseUrl: 'VAULT_IT_DATABASE_URL',
  natsUrl: 'VAULT_IT_NATS_URL',
  redisUrl: 'VAULT_IT_REDIS_URL',
  s3Endpoint: 'VAULT_IT_S3_ENDPOINT',
  s3AccessKey: 'VAULT_IT_S3_ACCESS_KEY',
  s3SecretKey: 'VAULT_IT_S3_SECRET_KEY',
};

export function containerEngineAvailable() {
  if (process.env.VAULT_IT_SERVERS === 'environment') return false;
  const host = process.env.DOCKER_HOST;
  if (host) return host.startsWith('unix://') ? existsSync(host.slice('unix://'.length)) : true;
  return existsSync('/var/run/docker.sock');
}

export function fromEnvironment() {
  return {
    source: 'environment',
    databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    // The MinIO of scripts/s3-server/start.sh, unless another S3-compatible server is named.
    s3Endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    s3AccessKey: process.env.S3_ACCESS_KEY_ID ?? 'vault-test',
    s3SecretKey: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret',
  };
}

const started = [];

export async function startContainers() {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RedisContainer } = await import('@testcontainers/redis');
  const [postgres, nats, redis, minio] = await Promise.all([
    new PostgreSqlContainer(process.env.VAULT_IT_POSTGRES_IMAGE ?? 'postgres:15').start(),
    new GenericContainer(process.env.VAULT_IT_NATS_IMAGE ?? 'nats:2.10')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start(),
    new RedisContainer(process.env.VAULT_IT_REDIS_IMAGE ?? 'redis:7').start(),
    new GenericContainer(process.env.VAULT_IT_MINIO_IMAGE ?? 'minio/minio')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'vault-test', MINIO_ROOT_PASSWORD: 'vault-test-secret' })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start(),
  ]);
  started.push(postgres, nats, redis, minio);
  for (const c of started) process.stdout.write(`  started container ${c.getId().slice(0, 12)} ${c.getName()}\n`);
  return {
    source: 'testcontainers',
    databaseUrl: postgres.getConnectionUri(),
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    redisUrl: redis.getConnectionUrl(),
    s3Endpoint: `http://${minio.getHost()}:${minio.getMappedPort(9000)}`,
    s3AccessKey: 'vault-test',
    s3SecretKey: 'vault-test-secret',
  };
}

export async function stopContainers() {
  for (const container of started.splice(0)) {
    const id = container.getId().slice(0, 12);
    await container.stop();
    process.stdout.write(`  removed container ${id}\n`);
  }
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
  for (const [name, url] of [['NATS', servers.natsUrl], ['Redis', servers.redisUrl], ['S3 (scripts/s3-server/start.sh)', servers.s3Endpoint]]) {
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
