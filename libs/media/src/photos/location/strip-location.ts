import type { PhotoContentType } from '@vault/contracts';
import { gifWithoutLocation } from './gif-location.js';
import { jpegWithoutLocation } from './jpeg-location.js';
import { pngWithoutLocation } from './png-location.js';
import { webpWithoutLocation } from './webp-location.js';

/**
 * A photo without the location data a camera or phone wrote into it (EXIF
 * GPS, and XMP that names a place), everything else kept.
 *
 * Lossless on purpose: the metadata is edited in the container and the
 * compressed image data is copied byte for byte. Re-encoding with sharp
 * would be simpler, but it costs quality on every JPEG and WebP, and it
 * drops or has to re-create what the owner keeps (the EXIF orientation, the
 * camera, the date, the colour profile). The input was decoded whole before
 * (image-check.ts), so the containers are well formed. Not covered: IPTC
 * place names in a JPEG's APP13, which cameras and phones do not write (an
 * editor that adds them writes them into XMP too, which is emptied).
 */
export function withoutLocation(bytes: Buffer, type: PhotoContentType): Buffer {
  // A copy: the edits happen in place, and the caller's buffer stays what was uploaded.
  const copy = Buffer.from(bytes);
  switch (type) {
    case 'image/jpeg':
      return jpegWithoutLocation(copy);
    case 'image/png':
      return pngWithoutLocation(copy);
    case 'image/webp':
      return webpWithoutLocation(copy);
    case 'image/gif':
      return gifWithoutLocation(copy);
  }
}
