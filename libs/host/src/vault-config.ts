import { ALLOWED_HOST_PATTERN, DEFAULT_ALLOWED_HOSTS } from '@vault/gateway';
import { DEFAULT_DATA_DIR } from '@vault/persistence';
import { ConfigError, LogLevel, RunMode, intVar, optionalVar, readConfig } from '@vault/platform';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES, databaseVariableOf, type DatabaseVariable } from '@vault/contracts';
import { requirements, type ServiceName } from './process-requirements.js';
import { z } from 'zod';

const flag = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['', 'true', 'false', '1', '0']).default(''))
  .transform((v) => v === 'true' || v === '1');

const list = z
  .preprocess((v) => v ?? '', z.string())
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** Host names, lower-cased; the loopback names when none are given. */
const hostList = list
  .pipe(z.array(z.string().regex(ALLOWED_HOST_PATTERN, 'must be a host name, *.domain, an IPv4 address or [IPv6 address], with an optional :port')))
  .transform((hosts) => (hosts.length > 0 ? hosts.map((host) => host.toLowerCase()) : [...DEFAULT_ALLOWED_HOSTS]));

const databaseUrl = optionalVar(z.url({ error: 'must be a postgres:// URL' }));
/** Each service's own database URL (`PLANNER_DATABASE_URL`...), one per service of the list. */
const serviceDatabaseUrls = Object.fromEntries(SERVICE_NAMES.map((service) => [databaseVariableOf(service), databaseUrl])) as Record<
  DatabaseVariable,
  typeof databaseUrl
>;

/** Every variable the vault reads, validated once at start. */
export const VaultEnvironment = z.object({
  VAULT_MODE: RunMode.default('embedded'),
  // 0 lets the system pick a free port (tests).
  PORT: intVar(3000, 0, 65535),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: LogLevel.default('info'),
  VAULT_DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: databaseUrl,
  ...serviceDatabaseUrls,
  /**
   * The most connections a service replica opens to its database (distributed
   * mode). Every replica of every service, and the ones a rolling upgrade adds,
   * must fit in the server's max_connections together (docs/deploy.md).
   */
  DATABASE_POOL_SIZE: intVar(5, 1, 100),
  /** media-svc's bucket (distributed mode): where the services reach it, and where browsers do. */
  S3_ENDPOINT: optionalVar(z.url({ error: 'must be an http(s):// URL' })),
  S3_PUBLIC_ENDPOINT: optionalVar(z.url({ error: 'must be an http(s):// URL' })),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3 to 63 of a-z, 0-9, . and -)')
    .default('vault-photos'),
  S3_ACCESS_KEY_ID: optionalVar(z.string().min(1)),
  S3_SECRET_ACCESS_KEY: optionalVar(z.string().min(1)),
  S3_FORCE_PATH_STYLE: z
    .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['', 'true', 'false', '1', '0']).default(''))
    .transform((v) => v !== 'false' && v !== '0'),
  /** 32 bytes, base64: wraps the journal's data key. Embedded mode keeps one in a file beside the data instead. */
  VAULT_MASTER_KEY: optionalVar(z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (openssl rand -base64 32)')),
  /** Only for `journal-svc rotate-master-key`: the master key that replaces VAULT_MASTER_KEY. */
  VAULT_NEW_MASTER_KEY: optionalVar(z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (openssl rand -base64 32)')),
  VAULT_SKIP_MIGRATIONS: flag,
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  RPC_TIMEOUT_MS: intVar(1500, 50, 60_000),
  /** Seconds a gateway or service told to stop (SIGTERM) keeps serving, answering not ready, before it closes (docs/deploy.md, "Upgrade"). */
  VAULT_STOP_DELAY_SECONDS: intVar(0, 0, 120),
  REDIS_URL: optionalVar(z.url({ error: 'must be a redis:// URL' })),
  SESSION_TTL_SECONDS: intVar(1800, 1, 86_400),
  /** Sign-in protection (README, "Security"): consecutive failures that lock an address out, and for how long. */
  VAULT_LOCKOUT_FAILURES: intVar(5, 1, 100),
  VAULT_LOCKOUT_SECONDS: intVar(900, 1, 86_400),
  /** Sign-in attempts per address and window, whatever their outcome. */
  VAULT_LOGIN_RATE_LIMIT: intVar(20, 1, 10_000),
  VAULT_LOGIN_RATE_WINDOW_SECONDS: intVar(900, 1, 86_400),
  VAULT_TRUSTED_PROXIES: list,
  /** The Host names the gateway answers (421 otherwise) and a write's Origin must name; README, "Security". */
  VAULT_ALLOWED_HOSTS: hostList,
  VAULT_WEB_DIST: z.string().default(fileURLToPath(new URL('../../../apps/web/dist', import.meta.url))),
  VAULT_OWNER_NAME: z.string().trim().min(1).max(100).default('Owner'),
  VAULT_OWNER_USERNAME: z.string().trim().min(1).max(100).default('owner'),
  VAULT_OWNER_PASSWORD_HASH: optionalVar(z.string().startsWith('$argon2id$', 'must be an argon2id hash ($argon2id$...)')),
  VAULT_OWNER_PASSWORD: optionalVar(z.string().min(1)),
  /** Prometheus metrics (docs/deploy.md, "Metrics and traces"); `false` switches them off everywhere. */
  VAULT_METRICS: z
    .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['', 'true', 'false', '1', '0']).default(''))
    .transform((v) => v !== 'false' && v !== '0'),
  /** The gateway's and the embedded vault's metrics port, apart from the public one; none without it. */
  METRICS_PORT: optionalVar(z.coerce.number().int().min(0).max(65535)),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** The OTLP/HTTP collector spans are exported to (OpenTelemetry's own variable); none without it. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalVar(z.url({ error: 'must be an http(s):// URL' })),
  OTEL_BSP_SCHEDULE_DELAY: intVar(5000, 0, 600_000),
});
export type VaultConfig = z.output<typeof VaultEnvironment>;

export function loadVaultConfig(env: NodeJS.ProcessEnv = process.env): VaultConfig {
  return readConfig(VaultEnvironment, env);
}

export type { ServiceName } from './process-requirements.js';

/** A service's own database URL wins over the shared one (one database per service in production). */
export function databaseUrlFor(config: VaultConfig, service: ServiceName): string {
  const url = config[databaseVariableOf(service)] ?? config.DATABASE_URL;
  if (!url) throw new ConfigError([requirements.database(service).problem]);
  return url;
}

export function requireRedis(config: VaultConfig): string {
  if (!config.REDIS_URL) throw new ConfigError([requirements.redis.problem]);
  return config.REDIS_URL;
}

export function requireMasterKey(config: VaultConfig): string {
  if (!config.VAULT_MASTER_KEY) throw new ConfigError([requirements.masterKey.problem]);
  return config.VAULT_MASTER_KEY;
}

export function requireNewMasterKey(config: VaultConfig): string {
  if (!config.VAULT_NEW_MASTER_KEY) throw new ConfigError([requirements.newMasterKey.problem]);
  if (config.VAULT_NEW_MASTER_KEY === config.VAULT_MASTER_KEY) throw new ConfigError(['VAULT_NEW_MASTER_KEY: must differ from VAULT_MASTER_KEY']);
  return config.VAULT_NEW_MASTER_KEY;
}

/** media-svc's bucket in distributed mode; every missing variable is listed at once. */
export function requireS3(config: VaultConfig) {
  const missing = requirements.s3.filter((need) => !config[need.anyOf[0] as 'S3_ENDPOINT']);
  if (missing.length > 0) throw new ConfigError(missing.map((need) => need.problem));
  return {
    kind: 's3' as const,
    endpoint: config.S3_ENDPOINT!,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}
