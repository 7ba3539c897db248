import type { PhotoSource, PhotoTarget } from '@vault/contracts';
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
  /**
   * A URL the browser PUTs one file to, for `ttlSeconds`, and the headers that
   * PUT must carry. The URL takes one object only: a second PUT stores nothing.
   */
  signUpload(key: string, ttlSeconds: number): Promise<SignedUpload>;
  /** The key an upload URL of this store names; undefined for any other URL. */
  keyOfUploadUrl(url: string): Promise<string | undefined>;
  /** Size and version (ETag) of an object; undefined when there is none. */
  stat(key: string): Promise<ObjectStat | undefined>;
  /**
   * The whole object (callers check its size first), refusing with `changed`
   * when it is no longer the version `stat` saw. With `into`, the bytes are
   * read into it and a view of them is answered (`too-large` when they do
   * not fit).
   */
  read(key: string, options?: { version?: string; into?: Buffer }): Promise<Buffer>;
  /** Stores a registered photo's bytes under its key. */
  writePhoto(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /**
   * Done with a registered upload: its bytes go, and its URL stays spent. A
   * bucket keeps an empty tombstone under the key, since a conditional PUT
   * (`If-None-Match: *`) is refused only while an object is there; the upload
   * sweep (UploadSweeper) removes it once the URL can no longer write.
   */
  retireUpload(key: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Removes every object under a prefix; returns how many. */
  removeAll(prefix: string): Promise<number>;
  /** Removes the objects under a prefix that `choose` picks, a page of keys at a time; returns how many. */
  removeChosen(prefix: string, choose: (keys: string[]) => Promise<string[]>): Promise<number>;
  /**
   * Removes whatever is still being written and is no object yet (the file
   * store's half-written files: uploads streaming in, photos being written,
   * each of which then fails); returns how many. A bucket holds none: a PUT
   * stores its object whole or not at all.
   */
  removeUnfinished(): Promise<number>;
  /** Where the gateway reads an object from (it never crosses the message bus). */
  locate(key: string): Promise<PhotoSource>;
  /** Where the gateway writes a restored photo's bytes under an upload key, reached from the vault's own network (never a browser). */
  importTarget(key: string, ttlSeconds: number): Promise<PhotoTarget>;
}

export interface SignedUpload {
  url: string;
  headers: Record<string, string>;
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
