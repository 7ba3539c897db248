import { ENV_KEYS, assertReachable, containerEngineAvailable, fromEnvironment, redact, startContainers } from './servers.mjs';

export default async function globalSetup() {
  const servers = containerEngineAvailable() ? await startContainers() : fromEnvironment();
  process.stdout.write(
    `\nIntegration servers: ${servers.source} (PostgreSQL ${redact(servers.databaseUrl)}, NATS ${servers.natsUrl}, Redis ${servers.redisUrl}, S3 ${servers.s3Endpoint})\n`,
  );
  await assertReachable(servers);
  // Workers start after this and inherit the environment.
  process.env.VAULT_IT_SOURCE = servers.source;
  for (const [key, name] of Object.entries(ENV_KEYS)) process.env[name] = servers[key];
}
