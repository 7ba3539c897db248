import { parseArgs } from 'node:util';

export const BACKUP_USAGE = `Usage:
  node dist/backup.js FILE [--passphrase-file PATH]
      The whole vault to FILE (an age file with a passphrase).
  node dist/backup.js --passphrase-file PATH --keep N [--dir DIR] [--s3-bucket BUCKET [--s3-prefix PREFIX]]
      A scheduled backup: an encrypted export named vault-backup-<UTC time>.zip.age,
      written to DIR and/or uploaded to BUCKET under PREFIX (S3_ENDPOINT, S3_REGION,
      S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE), then all but the
      newest N deleted in each.
`;

/** Where a scheduled backup goes, and how many each destination keeps. */
export interface ScheduledBackup {
  kind: 'scheduled';
  passphraseFile: string;
  keep: number;
  dir?: string;
  bucket?: { name: string; prefix: string };
}

/** One export to one file, kept as the command always did. */
export interface SingleBackup {
  kind: 'file';
  file: string;
  passphraseFile?: string;
}

export class BackupUsageError extends Error {}

/** The command line of dist/backup.js; a BackupUsageError says what is wrong with it. */
export function parseBackupArguments(args: string[]): SingleBackup | ScheduledBackup {
  const { values, positionals } = parseStrictly(args);
  const passphraseFile = values['passphrase-file'];
  const scheduled = values.keep !== undefined || values.dir !== undefined || values['s3-bucket'] !== undefined || values['s3-prefix'] !== undefined;
  if (!scheduled) {
    if (positionals.length !== 1) throw new BackupUsageError('one FILE to write, or a scheduled backup (--keep with --dir and/or --s3-bucket)');
    return { kind: 'file', file: positionals[0], ...(passphraseFile !== undefined ? { passphraseFile } : {}) };
  }
  const problems: string[] = [];
  if (positionals.length > 0) problems.push(`a scheduled backup names its own files: ${positionals.join(' ')} is not expected`);
  if (!passphraseFile) problems.push('--passphrase-file: required: scheduled backups are always encrypted');
  const keep = Number(values.keep);
  if (values.keep === undefined || !/^\d+$/.test(values.keep) || keep < 1) problems.push('--keep: required, how many backups to keep (1 or more)');
  if (!values.dir && !values['s3-bucket']) problems.push('--dir or --s3-bucket: a backup needs somewhere to go');
  if (values['s3-prefix'] !== undefined && !values['s3-bucket']) problems.push('--s3-prefix: only with --s3-bucket');
  if (values['s3-prefix']?.startsWith('/')) problems.push('--s3-prefix: must not start with /');
  if (problems.length > 0) throw new BackupUsageError(problems.join('; '));
  return {
    kind: 'scheduled',
    passphraseFile: passphraseFile!,
    keep,
    ...(values.dir ? { dir: values.dir } : {}),
    ...(values['s3-bucket'] ? { bucket: { name: values['s3-bucket'], prefix: values['s3-prefix'] ?? '' } } : {}),
  };
}

const BACKUP_OPTIONS = {
  'passphrase-file': { type: 'string' },
  keep: { type: 'string' },
  dir: { type: 'string' },
  's3-bucket': { type: 'string' },
  's3-prefix': { type: 'string' },
} as const;

/** parseArgs, with its complaint (an unknown option, a missing value) as a BackupUsageError. */
function parseStrictly(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options: BACKUP_OPTIONS });
  } catch (error) {
    throw new BackupUsageError((error as Error).message);
  }
}
