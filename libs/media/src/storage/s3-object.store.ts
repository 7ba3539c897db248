import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type _Object,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { PhotoSource, PhotoTarget } from '@vault/contracts';
import { ObjectStoreError, UPLOAD_KEY_AT_END, type ObjectStat, type ObjectStore, type SignedUpload } from './object.store.js';

export interface S3StoreOptions {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  publicEndpoint?: string;
}

/** A presigned GET lives just long enough for the gateway to start reading it. */
const READ_URL_TTL_SECONDS = 60;

/**
 * S3's conditional write: the PUT stores its object only if the key holds
 * none. Signed into every upload URL (a browser that leaves it out fails the
 * signature), so a URL writes one object, and none once its slot is spent.
 */
const ONE_OBJECT_ONLY = { 'If-None-Match': '*' };

/**
 * The distributed mode's object store: an S3-compatible bucket. Browsers PUT
 * to presigned URLs (signed for `publicEndpoint` when they reach the bucket
 * at another address than the services do); the gateway reads photos through
 * short-lived presigned GETs on the internal endpoint.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;
  /** Signs the URLs browsers use; the same client when there is no separate public endpoint. */
  private readonly publicClient: S3Client;

  constructor(private readonly options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.client = clientFor(options, options.endpoint);
    this.publicClient = options.publicEndpoint ? clientFor(options, options.publicEndpoint) : this.client;
  }

  async prepare(): Promise<void> {
    try {
      await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    try {
      await this.call(() => this.client.send(new CreateBucketCommand({ Bucket: this.bucket })));
    } catch (error) {
      // Another replica created it first.
      if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw error;
    }
  }

  async signUpload(key: string, ttlSeconds: number): Promise<SignedUpload> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, IfNoneMatch: ONE_OBJECT_ONLY['If-None-Match'] });
    // The presigner signs If-None-Match as a header (only x-amz-* headers move into the query): the PUT must send it.
    const url = await getSignedUrl(this.publicClient, command, { expiresIn: ttlSeconds });
    return { url, headers: { ...ONE_OBJECT_ONLY } };
  }

  /**
   * A URL names one of this store's uploads when, without its query, it is
   * exactly the address this store signs for that key: same endpoint, same
   * bucket, same addressing style.
   */
  async keyOfUploadUrl(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const key = UPLOAD_KEY_AT_END.exec(parsed.pathname)?.[1];
    if (!key) return undefined;
    const expected = new URL((await this.signUpload(key, 60)).url);
    return `${expected.origin}${expected.pathname}` === `${parsed.origin}${parsed.pathname}` ? key : undefined;
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    try {
      const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return { size: head.ContentLength ?? 0, version: head.ETag };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async read(key: string, { version, into }: { version?: string; into?: Buffer } = {}): Promise<Buffer> {
    try {
      const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, IfMatch: version })));
      if (into) return await readInto(object.Body as AsyncIterable<Uint8Array> | undefined, into);
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array(0);
      // A view of the bytes the SDK gathered, not a second copy of a photo.
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw changedOr(error);
    }
  }

  async writePhoto(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.call(() => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType })));
  }

  /** Overwrites the upload with an empty object: the bytes go, the key stays taken for the URL's conditional PUT. */
  async retireUpload(key: string): Promise<void> {
    await this.call(() => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: new Uint8Array(0) })));
  }

  async remove(key: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async removeAll(prefix: string): Promise<number> {
    return this.removeWhere(prefix, keysOf);
  }

  async removeChosen(prefix: string, choose: (keys: string[]) => Promise<string[]>): Promise<number> {
    return this.removeWhere(prefix, (objects) => choose(objects.flatMap((object) => (object.Key ? [object.Key] : []))));
  }

  /** A presigned PUT stores its object whole or not at all: nothing is ever half-written here. */
  async removeUnfinished(): Promise<number> {
    return 0;
  }

  async locate(key: string): Promise<PhotoSource> {
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: READ_URL_TTL_SECONDS,
    });
    return { kind: 'url', url };
  }

  /** A presigned PUT on the internal endpoint (the gateway's network, like locate's GET), for one object only. */
  async importTarget(key: string, ttlSeconds: number): Promise<PhotoTarget> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, IfNoneMatch: ONE_OBJECT_ONLY['If-None-Match'] });
    return { kind: 'url', url: await getSignedUrl(this.client, command, { expiresIn: ttlSeconds }), headers: { ...ONE_OBJECT_ONLY } };
  }

  onApplicationShutdown() {
    this.client.destroy();
    if (this.publicClient !== this.client) this.publicClient.destroy();
  }

  /** A page of objects at a time: `choose` answers which of their keys go. */
  private async removeWhere(prefix: string, choose: (objects: _Object[]) => string[] | Promise<string[]>): Promise<number> {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.call(() => this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })));
      const keys = (await choose(page.Contents ?? [])).map((Key) => ({ Key }));
      if (keys.length > 0) {
        const result = await this.call(() => this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } })));
        if (result.Errors?.length) throw new Error(`S3 refused to delete ${result.Errors.length} object(s): ${result.Errors[0].Message}`);
        removed += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  /** A store that does not answer at all is a 503 for the caller, not a 500. */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (statusOf(error) === undefined) {
        throw new ObjectStoreError('unavailable', `The object store at ${this.options.endpoint} does not answer: ${(error as Error).message}`);
      }
      throw error;
    }
  }
}

function clientFor(options: S3StoreOptions, endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Checksums only where S3 requires them: otherwise presigned PUT URLs would
    // carry the checksum of an empty body, and S3-compatible servers that lack
    // the newer checksum headers would refuse every call.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // A bucket that does not answer must surface as a prompt error, not a hung request.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15_000 },
  });
}

const keysOf = (objects: _Object[]) => objects.flatMap((object) => (object.Key ? [object.Key] : []));

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function changedOr(error: unknown): unknown {
  return statusOf(error) === 412 ? new ObjectStoreError('changed', 'The object changed while it was being checked') : error;
}

/** An object's bytes copied into `into` as they arrive, without gathering them first; a view of them. */
async function readInto(body: AsyncIterable<Uint8Array> | undefined, into: Buffer): Promise<Buffer> {
  let length = 0;
  for await (const chunk of body ?? []) {
    if (length + chunk.length > into.length) throw new ObjectStoreError('too-large', `The object is larger than ${into.length} bytes`);
    into.set(chunk, length);
    length += chunk.length;
  }
  return into.subarray(0, length);
}
