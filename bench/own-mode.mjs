// A run mode on data of its own, for a part of the bench run alone: the
// embedded vault in a fresh folder, or the distributed stack on a fresh
// database and bucket of the local servers and a NATS server of its own
// (private-nats.mjs); `cleanup` removes them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distributedEnv, distributedMode, embeddedMode } from '../scripts/lib/vault-launcher.mjs';
import { startPrivateNats } from './private-nats.mjs';

/**
 * @param {string} which 'embedded' or 'distributed'
 * @param {number} port the vault's (the gateway's); the distributed services' health ports from port + 100
 * @returns {Promise<{ mode: import('../scripts/lib/vault-launcher.mjs').Mode, cleanup: () => Promise<void> }>}
 */
export async function ownMode(which, port) {
  if (which === 'embedded') {
    const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-'));
    return { mode: embeddedMode({ port, dataDir }), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (which !== 'distributed') throw new Error(`a run mode is embedded or distributed, not ${which}`);
  const { ensureDatabase } = await import('../scripts/lib/database.mjs');
  const pg = (await import('pg')).default;
  const database = `postgres://postgres@127.0.0.1:5432/vault_bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(database);
  const nats = await startPrivateNats();
  const env = { ...distributedEnv(database), NATS_URL: nats.url };
  const cleanup = async () => {
    await nats.stop();
    const admin = new pg.Client({ connectionString: database.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`drop database if exists ${database.split('/').pop()} with (force)`);
    await admin.end();
    // The bucket media-svc made (empty: nothing was uploaded).
    const { S3Client, DeleteBucketCommand } = await import('@aws-sdk/client-s3');
    const s3 = new S3Client({
      endpoint: env.S3_ENDPOINT,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    });
    await s3.send(new DeleteBucketCommand({ Bucket: env.S3_BUCKET })).catch(() => undefined);
    s3.destroy();
  };
  return { mode: distributedMode({ gatewayPort: port, servicePort: port + 100, env }), cleanup };
}
