import { describe, expect, it } from '@jest/globals';
import { BackupUsageError, parseBackupArguments } from './backup-arguments.js';

const refusal = (args: string[]) => {
  try {
    parseBackupArguments(args);
  } catch (error) {
    expect(error).toBeInstanceOf(BackupUsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${args.join(' ')}`);
};

describe('dist/backup.js arguments', () => {
  it('keeps the one-file form: FILE, with or without a passphrase file', () => {
    expect(parseBackupArguments(['/tmp/v.zip'])).toEqual({ kind: 'file', file: '/tmp/v.zip' });
    expect(parseBackupArguments(['/tmp/v.zip.age', '--passphrase-file', '/run/p'])).toEqual({ kind: 'file', file: '/tmp/v.zip.age', passphraseFile: '/run/p' });
    expect(parseBackupArguments(['--passphrase-file', '/run/p', '/tmp/v.zip.age'])).toEqual({ kind: 'file', file: '/tmp/v.zip.age', passphraseFile: '/run/p' });
  });

  it("reads the CronJob's arguments: the volume, the bucket, or both", () => {
    const common = ['--passphrase-file', '/var/run/vault-backup/passphrase', '--keep', '7'];
    expect(parseBackupArguments([...common, '--dir', '/backups'])).toEqual({
      kind: 'scheduled',
      passphraseFile: '/var/run/vault-backup/passphrase',
      keep: 7,
      dir: '/backups',
    });
    expect(parseBackupArguments([...common, '--s3-bucket', 'acme-backups', '--s3-prefix', 'vault/'])).toEqual({
      kind: 'scheduled',
      passphraseFile: '/var/run/vault-backup/passphrase',
      keep: 7,
      bucket: { name: 'acme-backups', prefix: 'vault/' },
    });
    expect(parseBackupArguments([...common, '--dir', '/backups', '--s3-bucket', 'b-1'])).toMatchObject({
      dir: '/backups',
      bucket: { name: 'b-1', prefix: '' },
    });
  });

  it('refuses a scheduled backup without a passphrase, a count or a destination, naming each', () => {
    const message = refusal(['--keep', '0', '--s3-prefix', '/x']);
    for (const part of [
      '--passphrase-file: required',
      '--keep: required',
      '--dir or --s3-bucket',
      '--s3-prefix: only with --s3-bucket',
      '--s3-prefix: must not start with /',
    ])
      expect(message).toContain(part);
    expect(refusal(['--passphrase-file', 'p', '--keep', '2.5', '--dir', '/b'])).toContain('--keep');
    expect(refusal(['--passphrase-file', 'p', '--keep', '2', '--dir', '/b', 'extra.zip'])).toContain('extra.zip is not expected');
  });

  it('refuses unknown options and a missing FILE', () => {
    expect(refusal(['--keepp', '2'])).toContain("Unknown option '--keepp'");
    expect(refusal([])).toContain('one FILE to write');
    expect(refusal(['a.zip', 'b.zip'])).toContain('one FILE to write');
  });
});
