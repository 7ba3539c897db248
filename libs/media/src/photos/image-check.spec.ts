import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { isOnlyAnImage } from './image-check.js';

const picture = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } });
const frame = (colour: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
    .png()
    .toBuffer();
/** The same pixels every run, busy enough to take whole compressed blocks (JPEG's, a frame's own data). */
const pattern = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width, height, channels: 3 } });
const animation = async (frames: Buffer[]) => sharp(frames, { join: { animated: true } });
/** Three frames, the middle one busy. */
const threeFrames = async () => [await frame('red'), await pattern(16, 16).png().toBuffer(), await frame('blue')];
const cutShort = (bytes: Buffer, by: number) => bytes.subarray(0, bytes.length - by);

/** Where the image data of each frame of a GIF starts: its first data sub-block, after the LZW code size. */
function gifFrameData(gif: Buffer): number[] {
  const starts: number[] = [];
  const tableSize = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const skipSubBlocks = (at: number) => {
    while (gif[at] !== 0) at += gif[at]! + 1;
    return at + 1;
  };
  let at = 13 + tableSize(gif[10]!);
  while (gif[at] !== 0x3b) {
    if (gif[at] === 0x21) at = skipSubBlocks(at + 2);
    else {
      at += 10 + tableSize(gif[at + 9]!) + 1;
      starts.push(at);
      at = skipSubBlocks(at);
    }
  }
  return starts;
}

/** Where each frame's own image chunk (VP8L, VP8 or ALPH) of an animated WebP starts, in the order of the frames. */
function webpFrameChunks(webp: Buffer): number[] {
  const starts: number[] = [];
  for (let at = 12; at < webp.length; at += 8 + webp.readUInt32LE(at + 4) + (webp.readUInt32LE(at + 4) & 1)) {
    if (webp.toString('latin1', at, at + 4) === 'ANMF') starts.push(at + 8 + 16);
  }
  return starts;
}

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
    ['image/jpeg', () => pattern(64, 48).jpeg({ progressive: true }).toBuffer()],
    ['image/png', () => pattern(60, 45).png({ progressive: true }).toBuffer()],
    ['image/webp', () => pattern(50, 40).webp({ lossless: true }).toBuffer()],
    // A still WebP is decoded scaled down, to a pixel on its shorter side.
    ['image/webp', () => pattern(500, 2).webp().toBuffer()],
    ['image/webp', async () => (await animation(await threeFrames())).webp().toBuffer()],
    ['image/webp', async () => (await animation(await threeFrames())).webp({ lossless: true }).toBuffer()],
  ] as const)('accepts a real %s', async (type, make) => {
    expect(await isOnlyAnImage(await make(), type)).toBe(true);
  });

  it('accepts a JPEG whose data its decoder warns about, a warning not being an error', async () => {
    const jpeg = Buffer.from(await pattern(64, 48).jpeg({ quality: 90 }).toBuffer());
    const middle = Math.floor(jpeg.length / 2);
    jpeg.fill(0, middle, middle + 2);
    await expect(sharp(jpeg, { failOn: 'warning' }).raw().toBuffer()).rejects.toThrow(/Corrupt JPEG data/);
    expect(await isOnlyAnImage(jpeg, 'image/jpeg')).toBe(true);
  });

  it.each([
    ['a PNG', 'image/jpeg', () => picture().png().toBuffer()],
    ['a GIF', 'image/webp', () => picture().gif().toBuffer()],
    ['a WebP', 'image/gif', () => picture().webp().toBuffer()],
  ] as const)('refuses %s declared as %s', async (_name, type, make) => {
    expect(await isOnlyAnImage(await make(), type)).toBe(false);
  });

  it.each([
    ['a progressive JPEG cut short', 'image/jpeg', async () => cutShort(await pattern(64, 48).jpeg({ progressive: true }).toBuffer(), 200)],
    // Refused since the decoding stopped being sharp's stats(), which resolved with no channels when libvips failed without a message.
    ['an interlaced PNG cut short', 'image/png', async () => cutShort(await pattern(60, 45).png({ progressive: true }).toBuffer(), 20)],
    ['a GIF cut short', 'image/gif', async () => cutShort(await picture().gif().toBuffer(), 10)],
    ['a WebP cut short', 'image/webp', async () => cutShort(await picture().webp().toBuffer(), 10)],
    [
      'an animated GIF whose middle frame does not decode',
      'image/gif',
      async () => {
        const gif = Buffer.from(await (await animation(await threeFrames())).gif().toBuffer());
        const frames = gifFrameData(gif);
        expect(frames).toHaveLength(3);
        const middle = frames[1]!;
        return gif.fill(0xff, middle + 1, middle + 1 + gif[middle]!);
      },
    ],
    [
      'an animated WebP whose middle frame does not decode',
      'image/webp',
      async () => {
        const webp = Buffer.from(await (await animation(await threeFrames())).webp({ lossless: true }).toBuffer());
        const middle = webpFrameChunks(webp)[1]!;
        expect(webp.toString('latin1', middle, middle + 4)).toBe('VP8L');
        // Past the chunk's header and VP8L's own (signature, size): the frame's coded pixels.
        return webp.fill(0xff, middle + 8 + 5, middle + 8 + webp.readUInt32LE(middle + 4));
      },
    ],
    ['a GIF followed by an SVG', 'image/gif', async () => Buffer.concat([await picture().gif().toBuffer(), Buffer.from('<svg/onload=alert(1)>')])],
  ] as const)('refuses %s', async (_name, type, make) => {
    expect(await isOnlyAnImage(await make(), type)).toBe(false);
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
