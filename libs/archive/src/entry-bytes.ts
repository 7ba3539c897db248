import { read } from 'node:fs';
import { promisify } from 'node:util';
import { createInflateRaw, crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { ArchiveRefusal } from './archive-refusal.js';

/** One file of a zip, its bytes handed over a chunk at a time. */
export interface EntryBytes {
  /** The size the zip's directory declares, which the bytes are held to. */
  readonly size: number;
  /**
   * Calls `write` with each chunk in order and waits for it: a chunk is
   * valid only until that promise settles (the next one may reuse its
   * memory). Refused (ArchiveRefusal 400) when the bytes do not inflate to
   * the size and CRC-32 the directory declares.
   */
  copyTo(write: (chunk: Buffer) => Promise<void>): Promise<void>;
}

/**
 * A stored file is read into one buffer, reused for every chunk; a deflated
 * one is inflated from it. Each chunk a stream allocates stays in memory,
 * dead, until a garbage collection finds it: V8 scavenges for them only once
 * 32 MB of such buffers wait (twice its largest semi-space), and glibc then
 * keeps the memory they took. A photo import of 2 GB read through streams
 * rose the vault's memory by some 15 MB more than one read this way.
 */
const CHUNK_BYTES = 256 * 1024;
const readAt = promisify(read);

/** The bytes of `entry`, where yauzl's directory of the zip says they are, read from `fd`, a descriptor of the same file. */
export function entryBytes(zip: ZipFile, fd: number, entry: Entry): EntryBytes {
  return {
    size: entry.uncompressedSize,
    async copyTo(write) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true }).catch((error: Error) => {
        throw damaged(entry, error.message);
      });
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(entry.compressedSize, 1)));
      const compressed = chunksOf(fd, fileDataStart, entry, chunk);
      const crc = entry.compressionMethod === 0 ? await copyStored(entry, compressed, write) : await copyInflated(entry, compressed, write);
      if (crc !== entry.crc32) throw damaged(entry, 'its bytes do not match their CRC-32');
    },
  };
}

/** The entry's bytes as they are in the file, each chunk read into `chunk` once the one before it has been used. */
async function* chunksOf(fd: number, start: number, entry: Entry, chunk: Buffer): AsyncGenerator<Buffer> {
  for (let done = 0; done < entry.compressedSize; ) {
    const wanted = Math.min(chunk.length, entry.compressedSize - done);
    const { bytesRead } = await readAt(fd, chunk, 0, wanted, start + done);
    if (bytesRead === 0) throw damaged(entry, 'the zip ends inside it');
    done += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}

async function copyStored(entry: Entry, chunks: AsyncGenerator<Buffer>, write: (chunk: Buffer) => Promise<void>): Promise<number> {
  if (entry.compressedSize !== entry.uncompressedSize) throw wrongSize(entry, `stored in ${entry.compressedSize} bytes`);
  let crc = 0;
  for await (const chunk of chunks) {
    crc = crc32(chunk, crc);
    await write(chunk);
  }
  return crc;
}

/**
 * Inflated as it is read: each compressed chunk is handed to zlib and read
 * again only once zlib has used it (the write's callback), and zlib waits
 * while `write` takes what it gave. Past the declared size it stops: a zip
 * bomb inflates no further than the size its directory admitted. A failure
 * of `write` (the photo store, say) is thrown as it is; one of zlib's
 * refuses the zip.
 */
async function copyInflated(entry: Entry, chunks: AsyncGenerator<Buffer>, write: (chunk: Buffer) => Promise<void>): Promise<number> {
  if (entry.compressionMethod !== 8) throw damaged(entry, `it is compressed by method ${entry.compressionMethod}, which the vault does not read`);
  const inflate = createInflateRaw();
  let failure: unknown;
  const stop = (error: unknown) => {
    failure ??= error;
    inflate.destroy();
  };
  inflate.on('error', (error) => stop(damaged(entry, error.message)));
  const closed = new Promise<void>((resolve) => inflate.once('close', resolve));
  let crc = 0;
  let inflated = 0;
  inflate.on('data', (piece: Buffer) => {
    inflate.pause();
    inflated += piece.length;
    if (inflated > entry.uncompressedSize) return stop(wrongSize(entry, `more than ${entry.uncompressedSize} bytes`));
    crc = crc32(piece, crc);
    write(piece).then(() => inflate.resume(), stop);
  });
  try {
    for await (const chunk of chunks) {
      await Promise.race([new Promise<void>((resolve) => inflate.write(chunk, () => resolve())), closed]);
      if (failure) break;
    }
    if (!failure) inflate.end();
    // Once zlib has given all it holds and `write` has taken it, or once it stopped.
    await Promise.race([new Promise<void>((resolve) => inflate.once('end', resolve)), closed]);
  } finally {
    inflate.destroy();
  }
  if (failure) throw failure;
  if (inflated !== entry.uncompressedSize) throw wrongSize(entry, `${inflated} of ${entry.uncompressedSize} bytes`);
  return crc;
}

/** In the words yauzl's own size check is refused in (zip-file.ts refusalFor). */
function wrongSize(entry: Entry, found: string): ArchiveRefusal {
  return new ArchiveRefusal(400, `${entry.fileName.slice(0, 200)} does not inflate to the size it declares (${found}): refused as a zip bomb or damaged file`);
}

function damaged(entry: Entry, why: string): ArchiveRefusal {
  return new ArchiveRefusal(400, `${entry.fileName.slice(0, 200)} is damaged in the zip (${why}): refused`);
}
