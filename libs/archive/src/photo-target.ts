import { BadGatewayException, ServiceUnavailableException } from '@nestjs/common';
import type { PhotoTarget } from '@vault/contracts';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Only media-svc's own layout names a file: `<objects folder>/uploads/<uuid>`. */
const UPLOAD_FILE = /^\/(?:.+\/)?uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Writes a restored photo's bytes where media-svc reserved them: a new file
 * of the embedded store (never over another), or a presigned PUT on the
 * bucket. A photo is at most 10 MB, so the PUT sends it whole with its length.
 */
export async function writePhotoTarget(target: PhotoTarget, bytes: Readable, size: number): Promise<void> {
  if (target.kind === 'file') {
    if (!UPLOAD_FILE.test(target.path)) throw new BadGatewayException('The media service named an invalid upload file');
    const file = createWriteStream(target.path, { flags: 'wx', mode: 0o600 });
    // Only the open with 'wx' fails this way: the file was there before, and is not this photo's.
    let existed = false;
    file.on('error', (error: NodeJS.ErrnoException) => (existed ||= error.code === 'EEXIST'));
    try {
      await pipeline(bytes, file);
    } catch (error) {
      // A photo cut off part-way (a damaged archive) leaves no part of itself in the store; a file that was there stays.
      // Once the stream has closed, its open has settled: bytes that failed before it finished (a damaged entry of
      // a small photo fails at once) left the file it then made, which goes too.
      if (!file.closed) await once(file, 'close').catch(() => undefined);
      if (!existed) await rm(target.path, { force: true });
      throw error;
    }
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (body.length !== size) throw new BadGatewayException('A photo changed size while it was read from the archive');
  let response: Response;
  try {
    response = await fetch(target.url, { method: 'PUT', body, headers: target.headers, redirect: 'error' });
  } catch {
    throw new ServiceUnavailableException('The photo store is unavailable. Try again shortly.');
  }
  await response.body?.cancel();
  if (!response.ok) throw new BadGatewayException(`The photo store answered ${response.status}`);
}
