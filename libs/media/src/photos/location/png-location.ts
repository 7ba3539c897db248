import { crc32 } from 'node:zlib';
import { removeGps } from './exif-gps.js';
import { mentionsLocation } from './xmp-location.js';

const SIGNATURE = 8;

/**
 * A PNG without its location. PNG chunks carry no offsets to one another,
 * so a chunk can go whole: XMP (an `iTXt` named XML:com.adobe.xmp) that
 * mentions a place, and the `Raw profile type exif/xmp` text chunks that
 * older tools copy EXIF and XMP into. The `eXIf` chunk keeps everything but
 * its GPS IFD (its CRC is computed again). Image data chunks are copied as
 * they are.
 */
export function pngWithoutLocation(file: Buffer): Buffer {
  const kept: Buffer[] = [file.subarray(0, SIGNATURE)];
  let changed = false;
  let at = SIGNATURE;
  while (at + 12 <= file.length) {
    const length = file.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > file.length) break;
    const type = file.subarray(at + 4, at + 8).toString('latin1');
    const data = file.subarray(at + 8, at + 8 + length);
    if (type === 'eXIf') {
      const chunk = Buffer.from(file.subarray(at, end));
      const exif = chunk.subarray(8, 8 + length);
      if (removeGps(exif) === 'unreadable') exif.fill(0);
      chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + length)), 8 + length);
      kept.push(chunk);
      changed = true;
    } else if (!carriesLocation(type, data)) {
      kept.push(file.subarray(at, end));
    } else {
      changed = true;
    }
    at = end;
  }
  // Whatever follows the chunks the decoder read is kept as it came (the markup check has seen it).
  kept.push(file.subarray(at));
  // A file with nothing to take out is answered as it is, not copied (a 10 MB photo once, not twice).
  return changed ? Buffer.concat(kept) : file;
}

function carriesLocation(type: string, data: Buffer): boolean {
  if (type !== 'iTXt' && type !== 'tEXt' && type !== 'zTXt') return false;
  const keyword = data.subarray(0, Math.max(0, data.indexOf(0))).toString('latin1');
  if (/^Raw profile type (exif|app1|xmp)$/i.test(keyword)) return true;
  // XMP is stored uncompressed by every writer that follows the XMP spec; a compressed one goes unread.
  return keyword === 'XML:com.adobe.xmp' && (type !== 'iTXt' || data[keyword.length + 1] !== 0 || mentionsLocation(data));
}
