import type { PhotoContentType } from '@vault/contracts';
import type SharpModule from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { containsMarkup } from './markup-scan.js';

const FORMATS: Record<PhotoContentType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * failOn 'error': a truncated or corrupt file is refused; a mere warning
 * (some cameras' stray bytes) is not. Every frame of an animation, decoded in
 * order (sequentialRead), so that a decoder holds no more than it must.
 */
const INPUT = { failOn: 'error', animated: true, sequentialRead: true } as const;

/** What the decoding needs of the header sharp reads. */
type Header = Pick<Metadata, 'format' | 'width' | 'height' | 'pageHeight' | 'pages'>;

/**
 * Whether a file is an image of the type its first bytes declare and
 * nothing else: it decodes whole with sharp (every frame of an animation),
 * as that type, and it carries no markup. The magic bytes alone let a
 * polyglot or a file that merely starts like an image through.
 */
export async function isOnlyAnImage(bytes: Buffer, type: PhotoContentType): Promise<boolean> {
  if (containsMarkup(bytes)) return false;
  const sharp = await loadSharp();
  try {
    const header = await sharp(bytes, INPUT).metadata();
    if (header.format !== FORMATS[type]) return false;
    await decodeWhole(sharp, bytes, header);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes every pixel of every frame, keeping as little of the image as its
 * decoder allows: photos are checked one after another (200 in an import),
 * and a large buffer once freed stays with the process (glibc keeps it in
 * the arena of the thread that used it, and libvips decodes on several), so
 * what one check holds at once, the import keeps. stats() raised resident
 * memory by 30 MB to 135 MB over 20 photos of 10 MB: it reads the image four
 * times, so it copies it into memory first. (It also resolves, with no
 * channels, when libvips fails without a message, as on an interlaced PNG
 * cut short.)
 */
function decodeWhole(sharp: typeof SharpModule, bytes: Buffer, header: Header): Promise<Buffer> {
  if (header.format !== 'webp') return lastColumn(sharp(bytes, INPUT), header);
  return header.pages === undefined ? decodeStillWebp(sharp, bytes) : decodeLastWebpFrame(sharp, bytes, header);
}

/**
 * The rightmost column of every frame: as the loader gives rows in order
 * only, every row above the last is decoded to reach it, a strip at a time,
 * and the output is a few kilobytes. (A column spanning whole frames keeps
 * sharp from splitting an animation into frames, which copies it whole.)
 */
function lastColumn(image: Sharp, { width, height, pageHeight }: Header): Promise<Buffer> {
  return image
    .extract({ left: width - 1, top: 0, width: 1, height: pageHeight ?? height })
    .raw()
    .toBuffer();
}

/**
 * libvips keeps a copy of a WebP as it decodes it (13 MB for a 10 MB
 * photo), so a still one is decoded scaled down, its shorter side to one
 * pixel, by libwebp itself, which still decodes every block of it to scale
 * it. Not for animations, whose small frames would be scaled to nothing;
 * nor for JPEG, whose shrink-on-load leaves part of the decoding out.
 */
function decodeStillWebp(sharp: typeof SharpModule, bytes: Buffer): Promise<Buffer> {
  return sharp(bytes, INPUT).resize({ width: 1, height: 1, fit: 'fill', fastShrinkOnLoad: true }).raw().toBuffer();
}

/**
 * libvips composes each frame of an animated WebP on the frames before it,
 * so loading the last frame alone decodes them all in order, without a
 * copy of the whole animation (every frame one under the other). The
 * header read first held the whole animation to sharp's pixel limit.
 */
function decodeLastWebpFrame(sharp: typeof SharpModule, bytes: Buffer, header: Header): Promise<Buffer> {
  const pages = header.pages ?? 1;
  const lastFrame = sharp(bytes, { ...INPUT, animated: false, page: pages - 1, pages: 1 });
  return lastColumn(lastFrame, { ...header, height: header.pageHeight ?? header.height, pageHeight: undefined });
}

let sharpModule: Promise<typeof SharpModule> | undefined;

/**
 * sharp (libvips, about 25 MB resident and 100 ms to load) is loaded by the
 * first photo registered, not at start: most starts of a vault register none.
 */
function loadSharp(): Promise<typeof SharpModule> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    // Each photo is checked once: libvips's cache of operations (50 MB by default) would only hold on to decoded pixels.
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}
