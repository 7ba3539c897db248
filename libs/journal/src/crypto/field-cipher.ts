import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';

/** The formats of a sealed value's first byte: what its plaintext is (entry-cipher.ts says what an entry's are). */
export const FORMAT = {
  /** One value: a field's text, or a wrapped key. */
  value: 1,
  /** An entry's title and content together (ENTRY_TEXT in entry-cipher.ts). */
  entryText: 2,
} as const;
export type SealedFormat = (typeof FORMAT)[keyof typeof FORMAT];

const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;
export const KEY_BYTES = 32;

/**
 * Fresh IVs from the system's CSPRNG, drawn a page at a time: a
 * `randomBytes(12)` per value cost 3.3 µs here, a third of sealing one;
 * each IV is taken once, then its bytes are never handed out again.
 */
const ivPool = Buffer.allocUnsafeSlow(IV_BYTES * 341);
let ivTaken = ivPool.length;
function nextIv(): Buffer {
  if (ivTaken + IV_BYTES > ivPool.length) {
    randomFillSync(ivPool);
    ivTaken = 0;
  }
  const iv = ivPool.subarray(ivTaken, ivTaken + IV_BYTES);
  ivTaken += IV_BYTES;
  return iv;
}

/**
 * AES-256-GCM with a fresh 96-bit IV per value. The output is
 * `format | iv | tag | ciphertext`. The associated data binds a ciphertext
 * to where it belongs (an entry id and field), so a value copied into another
 * row or field fails to decrypt instead of showing up there; each format has
 * associated data of its own, so a value relabelled as another format fails
 * too.
 */
export function seal(key: Buffer, plaintext: Buffer | string, associatedData: string, format: SealedFormat = FORMAT.value): Buffer {
  const text = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
  const sealed = Buffer.allocUnsafe(HEADER_BYTES + text.length);
  sealed[0] = format;
  // Copied in before the cipher reads it: the pool's next refill cannot change what this value holds.
  nextIv().copy(sealed, 1);
  const cipher = createCipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + IV_BYTES));
  cipher.setAAD(Buffer.from(associatedData));
  // GCM is a stream mode: update() gives the whole ciphertext, as long as the plaintext; final() nothing.
  cipher.update(text).copy(sealed, HEADER_BYTES);
  cipher.final();
  cipher.getAuthTag().copy(sealed, 1 + IV_BYTES);
  return sealed;
}

/** The format a sealed value says it has (what its associated data must then be); undefined for none Vault writes. */
export function formatOf(sealed: Buffer): SealedFormat | undefined {
  return sealed[0] === FORMAT.value || sealed[0] === FORMAT.entryText ? sealed[0] : undefined;
}

export function open(key: Buffer, sealed: Buffer, associatedData: string, format: SealedFormat = FORMAT.value): Buffer {
  if (sealed.length < HEADER_BYTES || sealed[0] !== format) throw new Error('Unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(sealed.subarray(1 + IV_BYTES, HEADER_BYTES));
  const plaintext = decipher.update(sealed.subarray(HEADER_BYTES));
  // final() checks the tag: nothing of a value that fails it is returned.
  decipher.final();
  return plaintext;
}

export const openText = (key: Buffer, sealed: Buffer, associatedData: string) => open(key, sealed, associatedData).toString('utf8');
