import type { PhotoContentType } from '@vault/contracts';
import type SharpModule from 'sharp';
import { containsMarkup } from './markup-scan.js';

const FORMATS: Record<PhotoContentType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

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
    // failOn 'error': a truncated or corrupt file is refused; a mere warning (some cameras' stray bytes) is not.
    const image = sharp(bytes, { failOn: 'error', animated: true, sequentialRead: true });
    if ((await image.metadata()).format !== FORMATS[type]) return false;
    // Statistics read every pixel, a strip at a time, without holding the decoded image.
    await image.stats();
    return true;
  } catch {
    return false;
  }
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
