import type { PhotoSource } from '@vault/contracts';
import type { Readable } from 'node:stream';

/**
 * What media-svc needs from wherever the bytes live. Two adapters implement
 * it: `S3ObjectStore` (a bucket, presigned URLs) and `FileObjectStore` (a
 * folder, URLs the vault signs and serves itself). Nothing else in the lib
 * knows which one it has.
 */
export interface ObjectStore {
  readonly kind: 's3' | 'file';
  /** Creates the bucket or folder when it is missing. */
  prepare(): Promise<void>;
  /** A URL the browser PUTs one file to, for `ttlSeconds`. */
  signUpload(key: string, ttlSeconds: number): Promise<string>;
  /** The key an upload URL of this store names; undefined for any other URL. */
  keyOfUploadUrl(url: string): Promise<string | undefined>;
  /** Size and version (ETag) of an object; undefined when there is none. */
  stat(key: string): Promise<ObjectStat | undefined>;
  /** The first `length` bytes (fewer for a shorter object) of the version `stat` saw. */
  readHead(key: string, length: number, version?: string): Promise<Buffer>;
  /** Renames an object, refusing with `changed` when it is no longer the version `stat` saw. */
  move(from: string, to: string, version?: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Removes every object under a prefix; returns how many. */
  removeAll(prefix: string): Promise<number>;
  /** Removes the objects under a prefix last written before `before`; returns how many. */
  removeOlderThan(prefix: string, before: Date): Promise<number>;
  /** Where the gateway reads an object from (it never crosses the message bus). */
  locate(key: string): Promise<PhotoSource>;
}

export interface ObjectStat {
  size: number;
  version?: string;
}

export const OBJECT_STORE = Symbol('OBJECT_STORE');

/**
 * A store that could not do what was asked: `unavailable` when it does not
 * answer, `changed` when an object was replaced under a check, `too-large`
 * when an upload passed the limit while streaming.
 */
export class ObjectStoreError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'changed' | 'too-large' | 'interrupted',
    message: string,
  ) {
    super(message);
    this.name = 'ObjectStoreError';
  }
}

/** Upload bodies reach a store as a stream; nothing holds a whole photo in memory. */
export type UploadBody = Readable;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Keys are chosen by the server only: `uploads/<uuid>` until registered, then `photos/<uuid>`. */
export const OBJECT_KEY = new RegExp(`^(uploads|photos)/${UUID}$`);
export const UPLOAD_KEY_AT_END = new RegExp(`(uploads/${UUID})$`);
export const UPLOAD_PREFIX = 'uploads/';
export const PHOTO_PREFIX = 'photos/';

export const uploadKey = (id: string) => `${UPLOAD_PREFIX}${id}`;
export const photoKey = (id: string) => `${PHOTO_PREFIX}${id}`;
export const isObjectKey = (key: string) => OBJECT_KEY.test(key);
