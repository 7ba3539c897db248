import { removeGps } from './exif-gps.js';
import { emptyInPlace, mentionsLocation } from './xmp-location.js';

/**
 * A WebP without its location, edited in place: the `EXIF` chunk loses its
 * GPS IFD and an `XMP ` chunk that mentions a place is emptied. Nothing
 * changes length, so the RIFF sizes and the VP8X flags stay as they are, and
 * the image data is not touched.
 */
export function webpWithoutLocation(file: Buffer): Buffer {
  let at = 12;
  while (at + 8 <= file.length) {
    const type = file.subarray(at, at + 4).toString('latin1');
    const length = file.readUInt32LE(at + 4);
    const data = file.subarray(at + 8, Math.min(file.length, at + 8 + length));
    if (type === 'EXIF' && removeGps(data) === 'unreadable') data.fill(0);
    if (type === 'XMP ' && mentionsLocation(data)) emptyInPlace(data);
    // Chunks are padded to an even length.
    at += 8 + length + (length % 2);
  }
  return file;
}
