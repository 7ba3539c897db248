import { afterAll, describe, expect, it } from '@jest/globals';
import {
  ApiClient,
  createTestDatabase,
  createTestRedis,
  dayOneDifferences,
  dayOneExport,
  testServers,
  type TestDatabase,
  type TestRedis,
} from '@vault/testing';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allEntries, importJournalWatched, ownerData, progressGoesForward, restoreArchive } from './archive-support.js';
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
      const run = await gatewayCommand('backup.js', backup, '--passphrase-file', join(work, 'passphrase'));
      expect([run.code, run.stdout, run.stderr]).toEqual([0, `Backup written to ${backup}\n`, '']);
      const backedUp = await signedIn();
      const before = await ownerData(backedUp);
      // The backed-up vault logged the backup (after it was written, so not inside it); audit-svc stores it from JetStream.
      expect(await loggedSoon(backedUp, 'export', 'scheduled backup')).toBe(true);
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

  it("imports a journal with the gateway image's command (node dist/import-journal.js), and takes an import back whole when media-svc is down part-way", async () => {
    const exported = await dayOneExport({ entries: 40, photos: 5, videos: 0, pdfs: 0, seed: 'distributed import' });
    const owner = await signedIn();
    const before = await ownerData(owner);

    // The entries go in first, then the photos: with media-svc down, the import fails there and its entries go again.
    await current!.stack.stop('media');
    try {
      // Its progress, kept in Redis, says how far it came before it failed.
      const { answer, readings, last } = await importJournalWatched(owner, exported.zip);
      expect(answer.status).toBe(503);
      expect(progressGoesForward([...readings, last])).toBe(true);
      expect(last).toMatchObject({ stage: 'failed', entries: { stored: 40, total: 40 }, photos: { stored: 0, total: 5 } });
    } finally {
      await current!.stack.start('media');
    }
    expect(await ownerData(owner)).toEqual(before);

    const work = mkdtempSync(join(tmpdir(), 'vault-import-journal-'));
    try {
      const file = join(work, 'Day One Export.zip');
      writeFileSync(file, exported.zip);
      const run = await gatewayCommand('import-journal.js', file);
      expect([run.code, run.stdout, run.stderr]).toEqual([0, 'Imported 40 entries and 5 photos.\n', '']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    expect(await ownerData(owner)).toEqual({ ...before, journal: before.journal + 40, photos: before.photos + 5 });
    expect(dayOneDifferences(exported, await allEntries(owner))).toEqual([]);
    expect(await loggedSoon(owner, 'import_journal', 'gateway command line')).toBe(true);
  }, 300_000);

  const signedIn = async () => {
    const client = new ApiClient(current!.stack.url);
    expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
    return client;
  };
});

/** One of the gateway image's commands (`node dist/<command>`), as an operator or a CronJob runs it, against the test's services. */
function gatewayCommand(command: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Not spawnSync: the services answering it run in this very process.
    const child = spawn(process.execPath, [join(root, 'apps/gateway/dist', command), ...args], {
      env: { ...process.env, VAULT_MODE: 'distributed', NATS_URL: testServers().natsUrl, LOG_LEVEL: 'warn', REDIS_URL: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Whether the access log shows a successful `action` from `ipAddress` within 5 s: audit-svc stores it from JetStream, a moment after. */
async function loggedSoon(client: ApiClient, action: string, ipAddress: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    const log = (await client.request('GET', '/api/logs?limit=50')).json as Array<{ action: string; ipAddress: string; success: boolean }>;
    if (log.some((record) => record.action === action && record.ipAddress === ipAddress && record.success)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
