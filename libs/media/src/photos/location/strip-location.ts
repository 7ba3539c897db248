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
  // JPEG and WebP are edited in place: on a copy, so that the caller's buffer stays what was uploaded.
  return ownLocationStripped(type === 'image/jpeg' || type === 'image/webp' ? Buffer.from(bytes) : bytes, type);
}

/**
 * The same, for a caller that hands its buffer over (it reads the upload for
 * this and nothing else): a JPEG or WebP is edited in it, not in a copy, and
 * a file with nothing to take out is answered as it is.
 */
export function ownLocationStripped(bytes: Buffer, type: PhotoContentType): Buffer {
  switch (type) {
    case 'image/jpeg':
      return jpegWithoutLocation(bytes);
    case 'image/png':
      return pngWithoutLocation(bytes);
    case 'image/webp':
      return webpWithoutLocation(bytes);
    case 'image/gif':
      return gifWithoutLocation(bytes);
  }
}
