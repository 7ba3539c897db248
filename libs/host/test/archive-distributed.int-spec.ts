import { afterAll, describe, expect, it } from '@jest/globals';
import { ApiClient, createTestDatabase, createTestRedis, testServers, type TestDatabase, type TestRedis } from '@vault/testing';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownerData, restoreArchive } from './archive-support.js';
import { roundTrip } from './archive-round-trip.js';
import { OWNER, startDistributedStack } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Must-show 1 in the distributed mode: every part crosses NATS (records in
 * pages under 1 MB), photos come from and go to S3 through presigned URLs.
 * The restore goes into a new, empty vault: its own database, Redis and bucket.
 */
describe('export and restore, distributed mode', () => {
  const opened: Array<{ db: TestDatabase; redis: TestRedis; stack: Awaited<ReturnType<typeof startDistributedStack>> }> = [];
  let current: (typeof opened)[number] | undefined;

  const startVault = async () => {
    const db = await createTestDatabase();
    const redis = await createTestRedis();
    const stack = await startDistributedStack({ DATABASE_URL: db.url, NATS_URL: testServers().natsUrl, REDIS_URL: redis.url });
    current = { db, redis, stack };
    opened.push(current);
  };

  afterAll(async () => {
    await current?.stack.close();
    for (const { db, redis } of opened) {
      await db.drop();
      await redis.drop();
    }
  });

  it('round-trips a full vault into a new, empty one', async () => {
    await startVault();
    await roundTrip(
      () => current!.stack.url,
      async () => {
        // One vault on the bus at a time: the old one stops before the new one serves the same queue groups.
        await current!.stack.close();
        await startVault();
      },
    );
    expect(opened).toHaveLength(2);
  }, 600_000);

  // After the round trip: the restored vault is the one backed up.
  it("backs up with the gateway image's command (node dist/backup.js, as a CronJob runs it) and restores the backup", async () => {
    const work = mkdtempSync(join(tmpdir(), 'vault-backup-'));
    try {
      writeFileSync(join(work, 'passphrase'), 'the operators backup passphrase\n', { mode: 0o600 });
      const backup = join(work, 'vault-backup.zip.age');
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        // Not spawnSync: the services answering it run in this very process.
        const child = spawn(process.execPath, [join(root, 'apps/gateway/dist/backup.js'), backup, '--passphrase-file', join(work, 'passphrase')], {
          env: { ...process.env, VAULT_MODE: 'distributed', NATS_URL: testServers().natsUrl, LOG_LEVEL: 'warn', REDIS_URL: '' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect([run.code, run.stdout, run.stderr]).toEqual([0, `Backup written to ${backup}\n`, '']);
      const backedUp = await signedIn();
      const before = await ownerData(backedUp);
      // The backed-up vault logged the backup (after it was written, so not inside it); audit-svc stores it from JetStream.
      let logged = false;
      for (let i = 0; i < 50 && !logged; i++) {
        const log = (await backedUp.request('GET', '/api/logs?limit=50')).json as Array<{ action: string; ipAddress: string; success: boolean }>;
        logged = log.some((record) => record.action === 'export' && record.ipAddress === 'scheduled backup' && record.success);
        if (!logged) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(logged).toBe(true);
      await current!.stack.close();
      await startVault();
      const owner = await signedIn();
      const restored = await restoreArchive(owner, readFileSync(backup), 'the operators backup passphrase');
      expect(restored.status).toBe(200);
      expect(await ownerData(owner)).toEqual(before);
      expect(before.journal).toBeGreaterThan(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);

  const signedIn = async () => {
    const client = new ApiClient(current!.stack.url);
    expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
    return client;
  };
});
