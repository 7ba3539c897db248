import { DeleteObjectCommand, HeadBucketCommand, S3Client, S3ServiceException, paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { VaultConfig } from '@vault/host';
import { ConfigError } from '@vault/platform';
import { createReadStream } from 'node:fs';
import { backupsBeyond } from './backup-names.js';

/** The variables an upload needs beyond the ConfigMap's defaults. */
const REQUIRED = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * Scheduled backups in a bucket, as `<prefix><name>`, on the bucket server
 * and with the credentials of the vault's photos (S3_* variables). An upload
 * is a multipart upload for a large file: the object exists only once it is
 * complete, and a failed one is aborted, so the bucket never holds part of a
 * backup under its name.
 */
export class BackupBucket {
  private constructor(
    private readonly client: S3Client,
    private readonly endpoint: string,
    readonly bucket: string,
    readonly prefix: string,
  ) {}

  static open(config: VaultConfig, bucket: string, prefix: string): BackupBucket {
    const missing = REQUIRED.filter((name) => !config[name]);
    if (missing.length > 0) throw new ConfigError(missing.map((name) => `${name}: required by a backup to a bucket (--s3-bucket)`));
    const client = new S3Client({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials: { accessKeyId: config.S3_ACCESS_KEY_ID!, secretAccessKey: config.S3_SECRET_ACCESS_KEY! },
      // As media-svc's client: checksums only where S3 requires them, which every S3-compatible server accepts.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return new BackupBucket(client, config.S3_ENDPOINT!, bucket, prefix);
  }

  urlOf(name: string): string {
    return `s3://${this.bucket}/${this.prefix}${name}`;
  }

  /** Before the export: a bucket that is missing or refuses these credentials fails the run at once, not after an hour of exporting. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const why = status === 404 ? 'does not exist' : status === 403 ? 'refuses these credentials' : (error as Error).message || (error as Error).name;
      throw new Error(`bucket ${this.bucket} at ${this.endpoint}: ${why}`);
    }
  }

  async upload(file: string, name: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.prefix + name, Body: createReadStream(file), ContentType: 'application/octet-stream' },
      // Parts of 16 MiB, two at a time: a few dozen MiB of memory whatever the backup's size.
      partSize: 16 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  /** Deletes the backups under the prefix beyond the newest `keep` (nothing in deeper "folders"); returns their URLs. */
  async rotate(keep: number): Promise<string[]> {
    const names: string[] = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: this.prefix, Delimiter: '/' })) {
      for (const object of page.Contents ?? []) if (object.Key) names.push(object.Key.slice(this.prefix.length));
    }
    const removed = backupsBeyond(names, keep);
    for (const name of removed) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + name }));
    return removed.map((name) => this.urlOf(name));
  }

  close(): void {
    this.client.destroy();
  }
}
