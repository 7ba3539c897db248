import { BadGatewayException, ServiceUnavailableException } from '@nestjs/common';
import type { PhotoTarget } from '@vault/contracts';
import { type FileHandle, open, rm } from 'node:fs/promises';
import type { EntryBytes } from './entry-bytes.js';

/** Only media-svc's own layout names a file: `<objects folder>/uploads/<uuid>`. */
const UPLOAD_FILE = /^\/(?:.+\/)?uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Writes a restored or imported photo's bytes where media-svc reserved
 * them: a new file of the embedded store (never over another), a chunk at
 * a time as the zip gives them, or a presigned PUT on the bucket. A photo
 * is at most 10 MB, so the PUT sends it whole with its length.
 */
export async function writePhotoTarget(target: PhotoTarget, bytes: EntryBytes): Promise<void> {
  if (target.kind === 'file') {
    if (!UPLOAD_FILE.test(target.path)) throw new BadGatewayException('The media service named an invalid upload file');
    // 'wx': a file that is there already is not this photo's, and is never written or removed.
    const file = await open(target.path, 'wx', 0o600);
    try {
      await bytes.copyTo((chunk) => writeAll(file, chunk));
    } catch (error) {
      // A photo cut off part-way (a damaged archive) leaves no part of itself in the store.
      await file.close();
      await rm(target.path, { force: true });
      throw error;
    }
    await file.close();
    return;
  }
  // copyTo gives exactly `size` bytes, or fails.
  const body = Buffer.allocUnsafe(bytes.size);
  let length = 0;
  await bytes.copyTo(async (chunk) => {
    length += chunk.copy(body, length);
  });
  let response: Response;
  try {
    response = await fetch(target.url, { method: 'PUT', body, headers: target.headers, redirect: 'error' });
  } catch {
    throw new ServiceUnavailableException('The photo store is unavailable. Try again shortly.');
  }
  await response.body?.cancel();
  if (!response.ok) throw new BadGatewayException(`The photo store answered ${response.status}`);
}

/** A chunk written whole: a write to a file may take less than it was given. */
async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let done = 0; done < chunk.length; ) done += (await file.write(chunk, done)).bytesWritten;
}
