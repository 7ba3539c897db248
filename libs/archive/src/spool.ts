import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveRefusal } from './archive-refusal.js';
import { WrongPassphrase, decryptArchive, isAgeFile } from './archive-encryption.js';

/** The largest archive a restore takes: 200 photos of 10 MB and a long journal fit many times over. */
export const RESTORE_MAX_BYTES = 32 * 1024 ** 3;

export interface SpoolOptions {
  /** The archive as it arrives (an upload, or a file the CLI opened). */
  body: Readable;
  passphrase?: string;
}

/**
 * Copies the archive to a private temporary file (a zip is read from its end,
 * so it cannot be checked as it streams), decrypting an age file on the way.
 * Returns the zip's path; the caller removes it.
 */
export async function spoolArchive({ body, passphrase }: SpoolOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vault-restore-'));
  const raw = join(dir, 'upload');
  const zip = join(dir, 'archive.zip');
  try {
    await pipeline(body, limit(RESTORE_MAX_BYTES), createWriteStream(raw, { mode: 0o600 }));
    if (!(await isAgeFile(raw))) {
      if (passphrase) throw new ArchiveRefusal(400, 'A passphrase was given, but the archive is not encrypted');
      return raw;
    }
    if (!passphrase) throw new ArchiveRefusal(400, 'The archive is encrypted: give its passphrase');
    let plain: Readable;
    try {
      plain = await decryptArchive(raw, passphrase);
    } catch (error) {
      if (error instanceof WrongPassphrase) throw new ArchiveRefusal(400, 'The passphrase does not open this archive');
      throw error;
    }
    try {
      await pipeline(plain, createWriteStream(zip, { mode: 0o600 }));
    } catch (error) {
      throw new ArchiveRefusal(400, `The encrypted archive is damaged or incomplete (${(error as Error).message})`);
    }
    await rm(raw, { force: true });
    return zip;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function limit(max: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) done(new ArchiveRefusal(413, `The archive is larger than ${max} bytes`));
      else done(null, chunk);
    },
  });
}
