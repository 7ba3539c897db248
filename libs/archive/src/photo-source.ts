import { BadGatewayException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import type { PhotoSource } from '@vault/contracts';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** How long the bucket may take to start answering a presigned GET. */
export const PHOTO_FETCH_TIMEOUT_MS = 10_000;

/** Only media-svc's own layout names a file: `<objects folder>/photos/<uuid>`. */
const PHOTO_FILE = /^\/(?:.+\/)?photos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Opens a photo's bytes where media-svc located them, as a stream: the
 * gateway passes them to the browser a chunk at a time and never holds a
 * whole photo, and the bytes never cross the message bus.
 */
export async function openPhotoSource(source: PhotoSource, options: { chunkBytes?: number } = {}): Promise<Readable> {
  return source.kind === 'file' ? openFile(source.path, options.chunkBytes) : openUrl(source.url);
}

async function openFile(path: string, chunkBytes?: number): Promise<Readable> {
  if (!PHOTO_FILE.test(path)) throw new BadGatewayException('The media service named an invalid photo file');
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  try {
    await once(stream, 'open');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundException('Photo not found');
    throw error;
  }
  return stream;
}

async function openUrl(url: string): Promise<Readable> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PHOTO_FETCH_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: abort.signal, redirect: 'error' });
  } catch {
    throw new ServiceUnavailableException('The photo store is unavailable. Try again shortly.');
  } finally {
    // Only the wait for the answer is bounded; a large photo may take longer to pass on.
    clearTimeout(timer);
  }
  if (response.status === 404) throw new NotFoundException('Photo not found');
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new BadGatewayException(`The photo store answered ${response.status}`);
  }
  return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
}
