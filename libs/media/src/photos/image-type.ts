import type { PhotoContentType } from '@vault/contracts';

/** Enough of a file's head to tell every accepted type. */
export const IMAGE_HEAD_BYTES = 16;

const startsWith = (head: Buffer, bytes: number[], at = 0) => head.length >= at + bytes.length && bytes.every((byte, i) => head[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type a file's first bytes declare (its "magic number"), or
 * undefined when they declare none of jpeg, png, gif or webp. The name and
 * the Content-Type the browser sent are never consulted: both are the
 * uploader's to choose.
 */
export function imageTypeOf(head: Buffer): PhotoContentType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}
