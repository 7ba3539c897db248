import { describe, expect, it } from '@jest/globals';
import { IMAGE_HEAD_BYTES, imageTypeOf } from './image-type.js';

const bytes = (...parts: Array<number[] | string>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('image type from magic bytes', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF\0')],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe1], 'Exif')],
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0])],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
  ])('recognises %s', (type, head) => {
    expect(imageTypeOf(head)).toBe(type);
    expect(head.length).toBeLessThanOrEqual(IMAGE_HEAD_BYTES);
  });

  it.each([
    ['an empty file', bytes()],
    ['text', bytes('just some notes, named photo.png')],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
    ['SVG, which can carry script', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['a PDF', bytes('%PDF-1.7\n')],
    ['a WAV (RIFF, but not WebP)', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['a truncated PNG signature', bytes([0x89], 'PNG\r\n')],
    ['a JPEG marker that starts too late', bytes(' ', [0xff, 0xd8, 0xff])],
    ['GIF with an unknown version', bytes('GIF90a')],
  ])('refuses %s', (_name, head) => {
    expect(imageTypeOf(head)).toBeUndefined();
  });
});
