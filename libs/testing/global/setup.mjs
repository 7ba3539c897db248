import { ENV_KEYS, assertReachable, containerEngineAvailable, fromEnvironment, redact, startContainers } from './servers.mjs';

/** Jest passes its configuration: one NATS for each worker it may start (1 with --runInBand). */
export default async function globalSetup(globalConfig) {
  const workers = Math.max(1, globalConfig?.maxWorkers ?? 1);
  const servers = containerEngineAvailable() ? await startContainers(workers) : await fromEnvironment(workers);
  process.stdout.write(
    `\nIntegration servers: ${servers.source} (PostgreSQL ${redact(servers.databaseUrl)}, NATS ${servers.natsUrls}, Redis ${servers.redisUrl}, S3 ${servers.s3Endpoint})\n`,
  );
  await assertReachable(servers);
  // Workers start after this and inherit the environment.
  process.env.VAULT_IT_SOURCE = servers.source;
  for (const [key, name] of Object.entries(ENV_KEYS)) process.env[name] = servers[key];
}
