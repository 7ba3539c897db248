import { DeleteBucketCommand, DeleteObjectsCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/**
 * The S3-compatible server of the integration run: the one named in the
 * environment, else the MinIO that `scripts/s3-server/start.sh` starts with
 * its fixed local test credentials.
 */
export interface TestS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function testS3(): TestS3 {
  return {
    endpoint: process.env.VAULT_IT_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    region: process.env.VAULT_IT_S3_REGION ?? 'us-east-1',
    accessKeyId: process.env.VAULT_IT_S3_ACCESS_KEY ?? 'vault-test',
    secretAccessKey: process.env.VAULT_IT_S3_SECRET_KEY ?? 'vault-test-secret',
  };
}

export function s3Client(s3: TestS3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
  });
}

/** Fails the spec loudly, naming what to start, instead of letting it skip or time out. */
export async function assertS3Answers(s3: TestS3): Promise<void> {
  const client = s3Client(s3);
  try {
    await client.send(new ListBucketsCommand({}));
  } catch (error) {
    throw new Error(
      `The S3-compatible server at ${s3.endpoint} does not answer (${(error as Error).name}: ${(error as Error).message}).\n` +
        'Start it with `scripts/s3-server/start.sh` (MinIO on 127.0.0.1:9000), or name another one with ' +
        'VAULT_IT_S3_ENDPOINT, VAULT_IT_S3_ACCESS_KEY and VAULT_IT_S3_SECRET_KEY.',
    );
  } finally {
    client.destroy();
  }
}

export async function keysIn(client: S3Client, bucket: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (page.Contents ?? []).map((object) => object.Key!).sort();
}

/** The objects that hold bytes: a spent upload slot's empty tombstone is not one. */
export async function keysHoldingBytes(client: S3Client, bucket: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (page.Contents ?? [])
    .filter((object) => (object.Size ?? 0) > 0)
    .map((object) => object.Key!)
    .sort();
}

export async function dropBucket(client: S3Client, bucket: string): Promise<void> {
  const keys = await keysIn(client, bucket).catch(() => []);
  if (keys.length > 0) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
  await client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
}
