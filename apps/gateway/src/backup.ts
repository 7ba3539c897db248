// `node dist/backup.js FILE [--passphrase-file PATH]`: the whole vault to FILE
// (an age file with a passphrase), from the running services over NATS.
// `node dist/backup.js --passphrase-file PATH --keep N [--dir DIR] [--s3-bucket B [--s3-prefix P]]`:
// a scheduled backup, what the chart's CronJob runs (scheduled-backup.ts).
// See docs/deploy.md, "Backups".
import { loadProcessConfig, run, writeBackup } from '@vault/host';
import { ConfigError } from '@vault/platform';
import { BACKUP_USAGE, parseBackupArguments, type ScheduledBackup, type SingleBackup } from './backup-arguments.js';
import { runScheduledBackup } from './scheduled-backup.js';

let plan: SingleBackup | ScheduledBackup;
try {
  plan = parseBackupArguments(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n\n${BACKUP_USAGE}`);
  process.exit(2);
}

if (plan.kind === 'file') {
  const { file, passphraseFile } = plan;
  run(async () => {
    await writeBackup(loadProcessConfig('gateway', 'backup'), file, passphraseFile);
    process.stdout.write(`Backup written to ${file}\n`);
  });
} else {
  const scheduled = plan;
  // A failed run exits 1 with one line of why (the Job's log); the Job then tries again, up to its backoffLimit.
  new Promise<void>((resolve) =>
    resolve(runScheduledBackup(loadProcessConfig('gateway', 'backup'), scheduled, (line) => process.stdout.write(`${line}\n`))),
  ).then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `Backup failed: ${error.message}\n`);
      process.exit(1);
    },
  );
}
