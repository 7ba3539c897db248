/**
 * Where photos are kept. The embedded vault keeps them as files under its
 * data folder and serves the upload URL itself; the distributed one keeps
 * them in an S3-compatible bucket and hands out presigned URLs.
 */
export type ObjectStoreOptions =
  | {
      kind: 'file';
      /** `${VAULT_DATA_DIR}/objects`. */
      dir: string;
      /** At least 32 bytes; signs the upload URLs (an HMAC). A new key only voids URLs not used yet. */
      signingKey: Buffer | string;
    }
  | {
      kind: 's3';
      /** Where media-svc (and the gateway, to read photos) reach the S3 API. */
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** `true` for MinIO and most self-hosted servers: `endpoint/bucket/key` rather than `bucket.endpoint/key`. */
      forcePathStyle: boolean;
      /** The address browsers use for presigned upload URLs, when it differs from `endpoint`. */
      publicEndpoint?: string;
    };

export interface MediaOptions {
  /** False when a deploy job applies migrations before the service starts. */
  migrate: boolean;
  store: ObjectStoreOptions;
  /** How long an upload URL accepts its PUT; 5 minutes unless a test says otherwise. */
  uploadUrlTtlSeconds?: number;
  /**
   * How often media-svc's upload sweep passes while an upload URL it cannot
   * revoke may still write (after an erase, after a refusal): 5 s unless a
   * test says otherwise.
   */
  uploadSweepIntervalMs?: number;
  /** How long after its URL expired an upload may still be registered (60 s); then its object goes. */
  registrationGraceSeconds?: number;
  /** How long after its URL expired an upload's key is still watched for a PUT that started in time (300 s). */
  latePutGraceSeconds?: number;
}

export const MEDIA_OPTIONS = Symbol('MEDIA_OPTIONS');
