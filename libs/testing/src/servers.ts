/** The real servers this integration run talks to, as the global setup published them. */
export interface TestServers {
  source: 'testcontainers' | 'environment';
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKeyId: string; secretAccessKey: string };
}

export function testServers(): TestServers {
  const databaseUrl = process.env.VAULT_IT_DATABASE_URL;
  // This Jest worker's own NATS (JEST_WORKER_ID counts from 1; the global setup starts one per worker).
  const natsUrls = process.env.VAULT_IT_NATS_URLS?.split(',') ?? [];
  const natsUrl = natsUrls[(Number(process.env.JEST_WORKER_ID ?? 1) - 1) % Math.max(1, natsUrls.length)];
  const redisUrl = process.env.VAULT_IT_REDIS_URL;
  if (!databaseUrl || !natsUrl || !redisUrl) throw new Error('Integration servers are unknown: run the suite through its global setup');
  const s3 = {
    endpoint: process.env.VAULT_IT_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    accessKeyId: process.env.VAULT_IT_S3_ACCESS_KEY ?? 'vault-test',
    secretAccessKey: process.env.VAULT_IT_S3_SECRET_KEY ?? 'vault-test-secret',
  };
  return { source: process.env.VAULT_IT_SOURCE as TestServers['source'], databaseUrl, natsUrl, redisUrl, s3 };
}
