import { afterAll, beforeAll } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { AuditModule } from '@vault/audit';
import { AuthModule } from '@vault/auth';
import { JournalModule } from '@vault/journal';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaModule } from '@vault/media';
import { PlannerModule } from '@vault/planner';
import { randomBytes } from 'node:crypto';
import { TEST_OWNER, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { authOptions, loadVaultConfig, metricsUrlOf, requireS3, startEmbedded, startGateway, startService, type VaultConfig } from '../src/index.js';

/** The owner of every stack (the domain libs' behaviour suites sign in as the same one). */
export const OWNER = TEST_OWNER;

/** One master key per test process, as an operator would set VAULT_MASTER_KEY. */
export const MASTER_KEY = randomBytes(32);

/** The owner and the trusted proxy (the test itself, on loopback) of every vault a test starts, in process or as its own. */
export const OWNER_ENV = {
  VAULT_TRUSTED_PROXIES: '127.0.0.1',
  VAULT_OWNER_NAME: OWNER.name,
  VAULT_OWNER_USERNAME: OWNER.username,
  VAULT_OWNER_PASSWORD: OWNER.password,
};

const quiet = {
  ...OWNER_ENV,
  LOG_LEVEL: 'warn',
  VAULT_LOCKOUT_SECONDS: '2',
  VAULT_LOGIN_RATE_LIMIT: '12',
  HOST: '127.0.0.1',
  PORT: '0',
};

export function urlOf(app: INestApplication): string {
  const address = app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

/** The distributed mode inside the test process: each app its own Nest application, joined only by NATS. */
export async function startDistributedStack(env: Record<string, string>) {
  const { s3 } = testServers();
  const bucket = {
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: `vault-it-${randomBytes(4).toString('hex')}`,
  };
  const config = loadVaultConfig({ ...quiet, VAULT_MODE: 'distributed', ...bucket, ...env });
  const services = {
    auth: () => startService(config, 'auth', AuthModule.forRoot(authOptions(config))),
    planner: () => startService(config, 'planner', PlannerModule.forRoot({ migrate: true })),
    journal: () => startService(config, 'journal', JournalModule.forRoot({ migrate: true, masterKey: MASTER_KEY })),
    audit: () => startService(config, 'audit', AuditModule.forRoot({ migrate: true })),
    media: () => startService(config, 'media', MediaModule.forRoot({ migrate: true, store: requireS3(config) })),
  };
  // Every app joins the worker's NATS, which its spec files share: one left running after a failed
  // start would answer the next spec's requests from a dropped database (CI once failed 4 files so).
  const running: Record<string, INestApplication> = {};
  let gateway: INestApplication;
  try {
    for (const [name, start] of Object.entries(services)) running[name] = await start();
    gateway = await startGateway(config);
  } catch (error) {
    for (const app of Object.values(running)) await app.close().catch(() => undefined);
    throw error;
  }
  /** More replicas of a service, beside the one in `running`. */
  const replicas: INestApplication[] = [];
  return {
    config,
    url: urlOf(gateway),
    /** Stops one service, as a crash or a rollout would. */
    stop: async (name: keyof typeof services) => {
      await running[name].close();
      delete running[name];
    },
    start: async (name: keyof typeof services) => {
      running[name] = await services[name]();
    },
    /** Starts one more replica of a service (same queue group, same durable consumers); closed with the stack. */
    startReplica: async (name: keyof typeof services) => {
      const app = await services[name]();
      replicas.push(app);
      return app;
    },
    /** Each app's readiness URL, read when asked (a restarted service has a new port). */
    readinessUrls: (): Record<keyof typeof services | 'gateway', string> => ({
      gateway: `${urlOf(gateway)}/health/ready`,
      ...(Object.fromEntries(Object.entries(running).map(([name, app]) => [name, `${urlOf(app)}/health/ready`])) as Record<keyof typeof services, string>),
    }),
    /** Each app's /metrics: the services' on their health ports, the gateway's on its metrics port (with METRICS_PORT). */
    metricsUrls: (): Record<keyof typeof services | 'gateway', string | undefined> => ({
      gateway: metricsUrlOf(gateway),
      ...(Object.fromEntries(Object.entries(running).map(([name, app]) => [name, `${urlOf(app)}/metrics`])) as Record<keyof typeof services, string>),
    }),
    /** The running apps themselves, so a test can tell that none was replaced. */
    apps: (): Record<keyof typeof services | 'gateway', INestApplication> => ({ gateway, ...(running as Record<keyof typeof services, INestApplication>) }),
    /** Keys in the gateway's Redis, to look behind the session store. */
    redisKeys: async (pattern: string) => {
      const { Redis } = await import('ioredis');
      const redis = new Redis(config.REDIS_URL!);
      try {
        return await redis.keys(pattern);
      } finally {
        redis.disconnect();
      }
    },
    close: async () => {
      await gateway.close();
      for (const app of [...Object.values(running), ...replicas]) await app.close();
    },
  };
}

export function embeddedConfig(env: Record<string, string>): VaultConfig {
  return loadVaultConfig({ ...quiet, VAULT_MODE: 'embedded', ...env });
}

/** The embedded mode: every service in this one application over the in-process transport. */
export async function startEmbeddedVault(config: VaultConfig) {
  const migrate = true;
  const app = await startEmbedded(config, [
    AuthModule.forRoot(authOptions(config)),
    PlannerModule.forRoot({ migrate }),
    // As the embedded vault does: the key file beside the data, made with the first data key, deleted by a self-destruct.
    JournalModule.forRoot({ migrate, masterKey: { file: join(config.VAULT_DATA_DIR, 'master.key') } }),
    AuditModule.forRoot({ migrate }),
    MediaModule.forRoot({ migrate, store: { kind: 'file', dir: join(config.VAULT_DATA_DIR, 'objects'), signingKey: randomBytes(32) } }),
  ]);
  return { app, url: urlOf(app), close: () => app.close() };
}

/**
 * An embedded vault for the tests of one describe block: started on a data
 * folder of its own before them, closed and its folder removed after them.
 */
export function embeddedVaultForBlock(env: Record<string, string> = {}): () => Awaited<ReturnType<typeof startEmbeddedVault>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-embedded-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>> | undefined;
  beforeAll(async () => {
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir, ...env }));
  });
  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => vault!;
}

/**
 * A distributed stack for the tests of one describe block, on the worker's NATS,
 * with a database and a Redis of its own: started before them, stopped and
 * its stores dropped after them.
 */
export function distributedStackForBlock(): () => { stack: Awaited<ReturnType<typeof startDistributedStack>>; db: TestDatabase; redis: TestRedis } {
  let db: TestDatabase | undefined;
  let redis: TestRedis | undefined;
  let stack: Awaited<ReturnType<typeof startDistributedStack>> | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.drop();
    await redis?.drop();
  });
  return () => ({ stack: stack!, db: db!, redis: redis! });
}
