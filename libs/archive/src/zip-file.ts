import { closeSync, open } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { ArchiveRefusal } from './archive-refusal.js';
import { type EntryBytes, entryBytes } from './entry-bytes.js';
import { promisify } from 'node:util';

/**
 * Reading a zip the owner uploaded (an export to restore, another app's
 * journal to import) with yauzl: entries one at a time, each checked against
 * the size its header declares, and yauzl's refusals in the owner's words.
 */

const DAMAGED = 'The archive is damaged or incomplete (it is not a whole zip file)';

/** A zip open for reading: its directory and streams (yauzl), its files' bytes read straight from the file. */
export interface OpenedZip {
  zip: ZipFile;
  bytes(entry: Entry): EntryBytes;
  close(): void;
}

export async function openZip(path: string): Promise<OpenedZip> {
  // Loaded on the first restore or import, not at start.
  const { default: yauzl } = await import('yauzl');
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(new ArchiveRefusal(400, `${DAMAGED}: ${error?.message ?? 'unreadable'}`));
      else resolve(zip);
    });
  });
  // The files' bytes are read through a descriptor of their own: yauzl closes its own when the zip closes.
  let fd: number;
  try {
    fd = await promisify(open)(path, 'r');
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    zip,
    bytes: (entry) => entryBytes(zip, fd, entry),
    close: () => {
      zip.close();
      closeSync(fd);
    },
  };
}

/** yauzl's own refusals (a `..` or absolute path, a lying size, a cut-off file) in the owner's words. */
export function refusalFor(error: Error): ArchiveRefusal {
  if (error instanceof ArchiveRefusal) return error;
  const message = error.message;
  if (/invalid relative path|absolute path|invalid characters in fileName/.test(message)) {
    return new ArchiveRefusal(400, `The archive names a file outside itself (${message}): refused`);
  }
  if (/too many bytes|too few bytes|expected uncompressed size|not enough bytes in the stream/.test(message)) {
    return new ArchiveRefusal(400, `A file of the archive does not inflate to the size it declares (${message}): refused as a zip bomb or damaged file`);
  }
  return new ArchiveRefusal(400, `${DAMAGED}: ${message}`);
}

/**
 * The zip's directory by name, read entry by entry before any is inflated.
 * `admit` says of each entry whether it is kept (true), passed over (false),
 * or refuses the whole zip; it sees the entries kept so far.
 */
export function readZipDirectory(zip: ZipFile, admit: (entry: Entry, kept: Map<string, Entry>) => boolean | ArchiveRefusal): Promise<Map<string, Entry>> {
  const kept = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on('error', (error: Error) => reject(refusalFor(error)));
    zip.on('end', () => resolve(kept));
    zip.on('entry', (entry: Entry) => {
      const verdict = admit(entry, kept);
      if (verdict instanceof ArchiveRefusal) return reject(verdict);
      if (verdict) kept.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

export function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(refusalFor(error ?? new Error('unreadable entry')));
      else resolve(refusing(stream));
    });
  });
}

/**
 * The entry's bytes, failing with a refusal: an entry that does not inflate to
 * the size it declares is the archive's fault (400) wherever its bytes go
 * (a photo's upload file, the bucket), never the server's.
 */
function refusing(stream: Readable): Readable {
  // Quiet until read: an entry opened and not consumed must not end the process with its error.
  const bytes = new PassThrough().on('error', () => undefined);
  stream.on('error', (error) => bytes.destroy(refusalFor(error)));
  return stream.pipe(bytes);
}

export async function readWhole(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk as Buffer);
  } catch (error) {
    throw refusalFor(error as Error);
  }
  return Buffer.concat(chunks);
}
