import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ApiClient, testServers, numberedPng } from '@vault/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportArchive, fillVault, ownerData, restoreArchive, unzip } from './archive-support.js';
import { distributedVaults } from './distributed-vaults.js';
import { OWNER } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const BACKUP_NAME = /^vault-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.zip\.age$/;
const PASSPHRASE = 'the scheduled backups passphrase';

/**
 * The AWS SDK's notice, printed once by a process that makes an S3 client on
 * Node 20, that its releases from 2027 need Node 22: the project's to act on
 * (engines.node), not a word about the backup.
 */
const withoutNodeNotice = (stderr: string) =>
  stderr.replace(/\(node:\d+\) Warning: NodeVersionSupportWarning: [\s\S]*?\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/, '');

/**
 * Scheduled backups as the chart's CronJob runs them (templates/backup-cronjob.yaml,
 * whose arguments deploy/test/backup.test.mjs pins): `node dist/backup.js
 * --passphrase-file F --keep N --dir D` and/or `--s3-bucket B --s3-prefix P`, in a
 * process of its own with the gateway's ConfigMap variables and the bucket's
 * credentials, against a running distributed vault. Three runs per destination
 * with keep=2: the newest two stay, nothing temporary is left, what is not a
 * backup is left alone, a run that fails removes nothing; then the newest
 * backup restores into a new, empty vault, records and photo bytes identical.
 */
describe("scheduled backups (the CronJob's command), distributed mode", () => {
  const { s3 } = testServers();
  const bucket = `vault-backup-it-${randomBytes(4).toString('hex')}`;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const work = mkdtempSync(join(tmpdir(), 'vault-scheduled-backup-'));
  const folder = join(work, 'backups');
  const passphraseFile = join(work, 'passphrase');
  const scratch = join(work, 'tmp');
  const vaults = distributedVaults();
  const signedIn = async () => {
    const owner = new ApiClient(vaults.current.stack.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    return owner;
  };

  /**
   * The CronJob's container: its arguments with the pod's paths replaced by
   * this test's, and an environment of the gateway's ConfigMap keys (as
   * templates/configmap.yaml renders them) plus the bucket's credentials,
   * nothing of this test process's own.
   */
  const runBackup = (destinations: string[], passphrase = passphraseFile) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const env = {
        PATH: process.env.PATH,
        // The pod's /tmp: where a bucket-only run keeps its scratch copy.
        TMPDIR: scratch,
        VAULT_MODE: 'distributed',
        HOST: '0.0.0.0',
        LOG_LEVEL: 'warn',
        NATS_URL: testServers().natsUrl,
        RPC_TIMEOUT_MS: '1500',
        SESSION_TTL_SECONDS: '1800',
        VAULT_TRUSTED_PROXIES: '',
        VAULT_OWNER_NAME: OWNER.name,
        VAULT_OWNER_USERNAME: OWNER.username,
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: vaults.current.stack.config.S3_BUCKET,
        S3_REGION: 'us-east-1',
        S3_FORCE_PATH_STYLE: 'true',
        VAULT_SKIP_MIGRATIONS: 'true',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      };
      // Not spawnSync: the services answering it run in this very process.
      const child = spawn(process.execPath, ['dist/backup.js', '--passphrase-file', passphrase, '--keep', '2', ...destinations], {
        cwd: join(root, 'apps/gateway'),
        env,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr: withoutNodeNotice(stderr) }));
    });
  const keysUnder = async (prefix: string) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!).sort();
  const objectBytes = async (key: string) =>
    Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray());

  beforeAll(async () => {
    writeFileSync(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
    mkdirSync(folder);
    mkdirSync(scratch);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    await vaults.next();
    await fillVault(vaults.current.stack.url, { journalEntries: 12, photos: 3 });
  }, 120_000);

  afterAll(async () => {
    await vaults.closeAll();
    for (const key of await keysUnder('')) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    client.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('to a folder: each run adds one backup, the newest two stay, leftovers of a cut-off run go, other files stay', async () => {
    writeFileSync(join(folder, 'README.txt'), 'not a backup');
    const written: string[] = [];
    for (let run = 1; run <= 3; run++) {
      if (run === 3) {
        // What a pod killed mid-write leaves: a .partial from before this run.
        const leftover = join(folder, 'vault-backup-2020-01-01T03-30-00.000Z.zip.age.partial');
        writeFileSync(leftover, 'cut off');
        utimesSync(leftover, new Date('2020-01-01T04:00:00Z'), new Date('2020-01-01T04:00:00Z'));
      }
      const result = await runBackup(['--dir', folder]);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const file = /^Backup written to (.+)$/m.exec(result.stdout)?.[1];
      expect(file?.startsWith(`${folder}/`)).toBe(true);
      written.push(file!.slice(folder.length + 1));
      expect(written.at(-1)).toMatch(BACKUP_NAME);
      const removed = [...result.stdout.matchAll(/^Removed (.+)$/gm)].map((m) => m[1]);
      expect(removed).toEqual(run === 3 ? [join(folder, written[0]), join(folder, 'vault-backup-2020-01-01T03-30-00.000Z.zip.age.partial')] : []);
      expect(readdirSync(folder).sort()).toEqual(['README.txt', ...written.slice(-2)].sort());
    }
    expect(new Set(written).size).toBe(3);
    // Each is an age file under the passphrase.
    expect(readFileSync(join(folder, written[2])).subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
  }, 300_000);

  it('to a bucket under a prefix: the newest two stay, deeper keys and other objects stay', async () => {
    const prefix = 'nightly/';
    const untouched = [`${prefix}README.txt`, `${prefix}2019/vault-backup-2019-01-01T03-30-00.000Z.zip.age`];
    for (const key of untouched) await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'not rotated' }));
    const uploaded: string[] = [];
    for (let run = 1; run <= 3; run++) {
      const result = await runBackup(['--s3-bucket', bucket, '--s3-prefix', prefix]);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const url = /^Backup uploaded to (.+)$/m.exec(result.stdout)?.[1];
      expect(url?.startsWith(`s3://${bucket}/${prefix}`)).toBe(true);
      uploaded.push(url!.slice(`s3://${bucket}/`.length));
      expect(uploaded.at(-1)!.slice(prefix.length)).toMatch(BACKUP_NAME);
      expect(result.stdout).not.toContain('Backup written to');
      expect([...result.stdout.matchAll(/^Removed (.+)$/gm)].map((m) => m[1])).toEqual(run === 3 ? [`s3://${bucket}/${uploaded[0]}`] : []);
      expect(await keysUnder(prefix)).toEqual([...untouched, ...uploaded.slice(-2)].sort());
    }
    // A bucket-only run's scratch copy is gone with it.
    expect(readdirSync(scratch)).toEqual([]);
  }, 300_000);

  it('a run that fails (a bucket that does not exist) writes and removes nothing, and says why', async () => {
    const folderBefore = readdirSync(folder).sort();
    const bucketBefore = await keysUnder('');
    const result = await runBackup(['--dir', folder, '--s3-bucket', `${bucket}-missing`, '--s3-prefix', 'nightly/']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Backup failed: bucket ${bucket}-missing at ${s3.endpoint}: does not exist\n`);
    expect(readdirSync(folder).sort()).toEqual(folderBefore);
    expect(await keysUnder('')).toEqual(bucketBefore);
    const short = join(work, 'short-passphrase');
    writeFileSync(short, 'too short\n');
    const shortRun = await runBackup(['--dir', folder], short);
    expect([shortRun.code, shortRun.stderr]).toEqual([
      1,
      `Backup failed: --passphrase-file: the passphrase (the first line of ${short}) must be at least 12 characters\n`,
    ]);
    expect(readdirSync(folder).sort()).toEqual(folderBefore);
  }, 120_000);

  it('the newest backup restores into a new, empty vault: the same records, the same photo bytes', async () => {
    const newest = (await keysUnder('nightly/'))
      .filter((key) => BACKUP_NAME.test(key.slice('nightly/'.length)))
      .sort()
      .at(-1)!;
    const backup = await objectBytes(newest);
    const original = await unzip((await exportArchive(await signedIn(), { password: OWNER.password })).bytes);

    await vaults.next();
    const owner = await signedIn();
    expect(await ownerData(owner)).toEqual({ targets: 0, journal: 0, photos: 0, activities: 0, studies: 0, balance: 1_000_000_000 });
    const restored = await restoreArchive(owner, backup, PASSPHRASE);
    expect([restored.status, restored.text]).toEqual([200, expect.stringContaining('"journal":12')]);

    const after = await unzip((await exportArchive(owner, { password: OWNER.password })).bytes);
    const records = (files: Map<string, Buffer>) => ({ ...JSON.parse(files.get('vault.json')!.toString('utf8')), exportedAt: undefined, accessLog: undefined });
    expect(records(after)).toEqual(records(original));
    const photos = (files: Map<string, Buffer>) => [...files.entries()].filter(([name]) => name.startsWith('photos/')).sort(([a], [b]) => a.localeCompare(b));
    expect(photos(after).map(([name, bytes]) => [name, bytes.toString('base64')])).toEqual(
      photos(original).map(([name, bytes]) => [name, bytes.toString('base64')]),
    );
    expect(
      photos(after)
        .map(([, bytes]) => bytes.toString('base64'))
        .sort(),
    ).toEqual([0, 1, 2].map((n) => numberedPng(n).toString('base64')).sort());
  }, 300_000);
});
