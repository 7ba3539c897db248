import type { PhotoSource, PhotoTarget } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ObjectStoreError,
  PHOTO_PREFIX,
  UPLOAD_KEY_AT_END,
  UPLOAD_PREFIX,
  isObjectKey,
  type ObjectStat,
  type ObjectStore,
  type SignedUpload,
  type UploadBody,
} from './object.store.js';
import { UploadSignature, type SignatureCheck } from './upload-signature.js';

/** The embedded vault's upload URLs are paths on its own origin: `/objects/<key>?expires=..&signature=..`. */
export const FILE_UPLOAD_PATH = '/objects/';

const PARTIAL = '.partial';

/**
 * The embedded mode's object store: one file per object under
 * `${VAULT_DATA_DIR}/objects`, owner-only. Its "presigned" URLs are signed
 * by the vault and answered by `FileUploadController` in the same process.
 */
export class FileObjectStore implements ObjectStore {
  readonly kind = 'file' as const;
  readonly dir: string;
  private readonly signature: UploadSignature;

  constructor(dir: string, signingKey: Buffer | string, now?: () => number) {
    this.dir = resolve(dir);
    this.signature = new UploadSignature(signingKey, now);
  }

  async prepare(): Promise<void> {
    for (const sub of ['', UPLOAD_PREFIX, PHOTO_PREFIX, PARTIAL]) await mkdir(join(this.dir, sub), { recursive: true, mode: 0o700 });
    // Owner-only even when the folder existed before: the photos are the owner's private life.
    await chmod(this.dir, 0o700);
    // Left by a process that stopped mid-upload.
    await this.emptyFolder(PARTIAL);
  }

  /** No header to send: `FileUploadController` takes one PUT per URL by itself (media.uploads.uploaded_at). */
  async signUpload(key: string, ttlSeconds: number): Promise<SignedUpload> {
    const { expires, signature } = this.signature.issue(this.checked(key), ttlSeconds);
    return { url: `${FILE_UPLOAD_PATH}${key}?${new URLSearchParams({ expires, signature })}`, headers: {} };
  }

  /** Whatever origin the browser resolved the path against; only the path names the key. */
  async keyOfUploadUrl(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url, 'http://vault.invalid');
    } catch {
      return undefined;
    }
    if (!parsed.pathname.startsWith(FILE_UPLOAD_PATH)) return undefined;
    const key = parsed.pathname.slice(FILE_UPLOAD_PATH.length);
    return UPLOAD_KEY_AT_END.test(key) && key.startsWith(UPLOAD_PREFIX) && isObjectKey(key) ? key : undefined;
  }

  checkUploadSignature(key: string, expires: unknown, signature: unknown): SignatureCheck {
    return this.signature.check(key, expires, signature);
  }

  /**
   * Streams an upload into place, counting as it goes: past `maxBytes` it
   * stops writing and fails with `too-large`, so nothing larger is ever held
   * or kept. The body is never destroyed here, so the caller can still answer.
   * Its half-written file goes whatever stops it: a refusal, a connection cut
   * (even one cut before this began to read), an erase that emptied `.partial`.
   */
  async writeUpload(key: string, body: UploadBody, maxBytes: number): Promise<number> {
    const target = this.pathOf(key);
    // Cut while the URL was being checked: nothing more will come, and a pipe from it would wait for ever.
    if (body.destroyed) throw interruptedUpload();
    const partial = join(this.dir, PARTIAL, randomUUID());
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) done(new ObjectStoreError('too-large', `The upload is larger than ${maxBytes} bytes`));
        else done(null, chunk);
      },
    });
    const interrupted = () => {
      if (!body.readableEnded) counter.destroy(interruptedUpload());
    };
    body.once('aborted', interrupted);
    body.once('error', interrupted);
    body.once('close', interrupted);
    // pipe() (not pipeline) from the body: a failure unpipes it instead of destroying the request.
    body.pipe(counter);
    const file = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(counter, file);
      await rename(partial, target);
      return size;
    } catch (error) {
      // The rest of the body is read and dropped, so the connection can carry the refusal.
      body.unpipe(counter);
      body.resume();
      // Closed before it is removed: a file still being opened would otherwise appear after the removal.
      await closed(file);
      await rm(partial, { force: true });
      // Gone before the rename: an erase emptied `.partial` while this was being written.
      throw isMissing(error) ? interruptedUpload() : error;
    } finally {
      body.off('aborted', interrupted);
      body.off('error', interrupted);
      body.off('close', interrupted);
    }
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** An upload file never changes once written (its URL is spent), so there is no version to check. */
  async read(key: string, { into }: { into?: Buffer } = {}): Promise<Buffer> {
    if (!into) return readFile(this.pathOf(key));
    const file = await open(this.pathOf(key), 'r');
    try {
      let length = 0;
      while (length < into.length) {
        const { bytesRead } = await file.read(into, length, into.length - length, null);
        if (bytesRead === 0) return into.subarray(0, length);
        length += bytesRead;
      }
      // Full: the file fits only if nothing follows.
      if ((await file.read(Buffer.alloc(1), 0, 1, null)).bytesRead > 0)
        throw new ObjectStoreError('too-large', `The object is larger than ${into.length} bytes`);
      return into;
    } finally {
      await file.close();
    }
  }

  /** Written beside, then renamed into place: a photo file is either whole or absent. */
  async writePhoto(key: string, bytes: Buffer): Promise<void> {
    const partial = join(this.dir, PARTIAL, randomUUID());
    try {
      await writeFile(partial, bytes, { flag: 'wx', mode: 0o600 });
      await rename(partial, this.pathOf(key));
    } catch (error) {
      await rm(partial, { force: true });
      // An erase emptied `.partial` while the photo was being written.
      throw isMissing(error) ? new ObjectStoreError('interrupted', 'The photo was removed while it was being written') : error;
    }
  }

  /** The URL is spent in the database already; the file simply goes. */
  async retireUpload(key: string): Promise<void> {
    await this.remove(key);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeAll(prefix: string): Promise<number> {
    return this.emptyFolder(prefix);
  }

  /** The half-written files in `.partial`: uploads streaming in, photos being written (each then fails). */
  async removeUnfinished(): Promise<number> {
    return this.emptyFolder(PARTIAL);
  }

  async removeChosen(prefix: string, choose: (keys: string[]) => Promise<string[]>): Promise<number> {
    const chosen = await choose((await this.namesIn(prefix)).map((name) => `${prefix}${name}`));
    for (const key of chosen) await this.remove(key);
    return chosen.length;
  }

  async locate(key: string): Promise<PhotoSource> {
    return { kind: 'file', path: this.pathOf(key) };
  }

  /** The gateway runs in this process: it writes the upload's file itself (created exclusively, so never over another). */
  async importTarget(key: string): Promise<PhotoTarget> {
    return { kind: 'file', path: this.pathOf(key) };
  }

  /** Keys are checked before they become paths, so no key can name a file outside the folder. */
  private pathOf(key: string): string {
    return join(this.dir, this.checked(key));
  }

  private checked(key: string): string {
    if (!isObjectKey(key)) throw new Error(`Not an object key: ${key}`);
    return key;
  }

  private async emptyFolder(prefix: string): Promise<number> {
    const names = await this.namesIn(prefix);
    for (const name of names) await rm(join(this.dir, prefix, name), { force: true, recursive: true });
    return names.length;
  }

  private async namesIn(prefix: string): Promise<string[]> {
    return readdir(join(this.dir, prefix)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
  }
}

const interruptedUpload = () => new ObjectStoreError('interrupted', 'The upload was interrupted');

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Resolves once the stream has released its file (at once if it has). */
function closed(stream: WriteStream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}
