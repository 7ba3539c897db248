import { EXPORT_PASSPHRASE_MIN } from '@vault/contracts';
import { readPassphraseFile } from '@vault/archive';
import { writeBackup, type VaultConfig } from '@vault/host';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScheduledBackup } from './backup-arguments.js';
import { BackupBucket } from './backup-bucket.js';
import { BackupFolder } from './backup-folder.js';
import { backupName } from './backup-names.js';

/**
 * One scheduled backup (what the chart's CronJob runs): one encrypted export,
 * named by this run's start, written to the folder (or, without one, to a
 * private scratch folder) and uploaded to the bucket. Only when it is whole
 * in every destination are the older backups beyond `keep` deleted there: a
 * run that fails anywhere deletes nothing, so the last good backups stay.
 * `say` reports each step (the job's log).
 */
export async function runScheduledBackup(config: VaultConfig, plan: ScheduledBackup, say: (line: string) => void): Promise<void> {
  const startedAt = new Date();
  const passphrase = await readPassphraseFile(plan.passphraseFile);
  if (passphrase.length < EXPORT_PASSPHRASE_MIN) {
    throw new Error(`--passphrase-file: the passphrase (the first line of ${plan.passphraseFile}) must be at least ${EXPORT_PASSPHRASE_MIN} characters`);
  }
  const folder = plan.dir === undefined ? undefined : new BackupFolder(plan.dir);
  const bucket = plan.bucket && BackupBucket.open(config, plan.bucket.name, plan.bucket.prefix);
  const scratch = folder ? undefined : await mkdtemp(join(tmpdir(), 'vault-backup-'));
  try {
    await bucket?.check();
    const name = backupName(startedAt);
    const file = folder ? folder.pathOf(name) : join(scratch!, name);
    await writeBackup(config, file, plan.passphraseFile);
    if (folder) say(`Backup written to ${file}`);
    if (bucket) {
      await bucket.upload(file, name);
      say(`Backup uploaded to ${bucket.urlOf(name)}`);
    }
    for (const removed of (await folder?.rotate(plan.keep, startedAt)) ?? []) say(`Removed ${removed}`);
    for (const removed of (await bucket?.rotate(plan.keep)) ?? []) say(`Removed ${removed}`);
  } finally {
    bucket?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
