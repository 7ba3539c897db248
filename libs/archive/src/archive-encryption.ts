import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * An encrypted archive is an age file (age-encryption.org/v1) with a
 * passphrase recipient: a standard format that `age -d` and `rage -d` open,
 * authenticated chunk by chunk (a flipped byte or a cut-off end is detected)
 * and streamed, so encrypting costs no more memory than the export itself,
 * apart from scrypt's one derivation of the key.
 */
const AGE_HEADER = Buffer.from('age-encryption.org/v1\n');

/** Loaded when first needed: most runs of the vault never encrypt or decrypt an archive. */
const age = () => import('age-encryption');

/**
 * The age file of a zip, as a stream, and when its header is made. age's
 * scrypt runs in JavaScript and holds the event loop for a second or two:
 * the caller starts producing the zip only once `ready` has resolved, so no
 * call of its own waits on a blocked loop.
 */
export function encryptArchive(zip: Readable, passphrase: string): { archive: Readable; ready: Promise<void> } {
  const archive = new PassThrough();
  const ready = age()
    .then(({ Encrypter }) => {
      const encrypter = new Encrypter();
      encrypter.setPassphrase(passphrase);
      return encrypter.encrypt(Readable.toWeb(zip) as unknown as ReadableStream<Uint8Array>);
    })
    .then((encrypted) => {
      Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>)
        .on('error', (error) => archive.destroy(error))
        .pipe(archive);
    });
  ready.catch((error: Error) => archive.destroy(error));
  zip.on('error', (error) => archive.destroy(error));
  return { archive, ready };
}

/** Whether a file starts as an age file does. */
export async function isAgeFile(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(AGE_HEADER.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(AGE_HEADER);
  } catch {
    return false;
  } finally {
    await file.close();
  }
}

export class WrongPassphrase extends Error {}

/**
 * The plaintext of an age file, as a stream. The header (and so the
 * passphrase) is checked before this resolves: a wrong one throws
 * WrongPassphrase; damage later in the file fails the stream.
 */
export async function decryptArchive(path: string, passphrase: string): Promise<Readable> {
  const { Decrypter } = await age();
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  const source = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
  try {
    return Readable.fromWeb((await decrypter.decrypt(source)) as unknown as WebReadableStream<Uint8Array>);
  } catch (error) {
    throw new WrongPassphrase((error as Error).message);
  }
}
