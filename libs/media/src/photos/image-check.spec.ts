import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { isOnlyAnImage } from './image-check.js';

const picture = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } });
const frame = (colour: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('an upload that is an image and nothing else', () => {
  it.each([
    ['image/jpeg', () => picture().jpeg().toBuffer()],
    ['image/png', () => picture().png().toBuffer()],
    ['image/webp', () => picture().webp().toBuffer()],
    ['image/gif', () => picture().gif().toBuffer()],
    // Every frame of an animation is decoded.
    [
      'image/gif',
      async () =>
        sharp(await Promise.all(['red', 'green', 'blue'].map(frame)), { join: { animated: true } })
          .gif()
          .toBuffer(),
    ],
  ] as const)('accepts a real %s', async (type, make) => {
    expect(await isOnlyAnImage(await make(), type)).toBe(true);
  });

  it('refuses a file that is another type than its first bytes declare', async () => {
    expect(await isOnlyAnImage(await picture().jpeg().toBuffer(), 'image/png')).toBe(false);
  });

  it.each([
    [
      'a JPEG cut in half',
      async () => {
        const jpeg = await picture().jpeg().toBuffer();
        return jpeg.subarray(0, jpeg.length / 2);
      },
    ],
    [
      'a PNG cut short',
      async () => {
        const png = await picture().png().toBuffer();
        return png.subarray(0, png.length - 20);
      },
    ],
    ['JPEG magic bytes then HTML', async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<p>hello</p>')])],
    ['a JPEG followed by a page', async () => Buffer.concat([await picture().jpeg().toBuffer(), Buffer.from('<html><script>x()</script>')])],
  ])('refuses %s', async (_name, make) => {
    const bytes = await make();
    expect(await isOnlyAnImage(bytes, bytes[0] === 0x89 ? 'image/png' : 'image/jpeg')).toBe(false);
  });
});
