import { mentionsLocation } from './xmp-location.js';

const XMP_APPLICATION = Buffer.from('XMP DataXMP', 'latin1');

/**
 * A GIF without its location. GIF has no EXIF; its only metadata that may
 * name a place is XMP, in an application extension, which goes whole when
 * it does (GIF blocks carry no offsets). Image data is copied as it is.
 */
export function gifWithoutLocation(file: Buffer): Buffer {
  const flags = file[10];
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const kept: Buffer[] = [];
  let copiedTo = 0;
  while (at < file.length) {
    const introducer = file[at];
    if (introducer === 0x3b) break;
    let end: number;
    if (introducer === 0x21) {
      end = afterSubBlocks(file, at + 2);
      if (file[at + 1] === 0xff && isXmp(file, at + 2) && mentionsLocation(file.subarray(at, end))) {
        kept.push(file.subarray(copiedTo, at));
        copiedTo = end;
      }
    } else if (introducer === 0x2c) {
      const imageFlags = file[at + 9];
      const table = imageFlags & 0x80 ? 3 * 2 ** ((imageFlags & 0x07) + 1) : 0;
      // The descriptor, its colour table, the LZW code size, then the data's sub-blocks.
      end = afterSubBlocks(file, at + 10 + table + 1);
    } else {
      break;
    }
    if (end > file.length) break;
    at = end;
  }
  kept.push(file.subarray(copiedTo));
  return kept.length === 1 ? file : Buffer.concat(kept);
}

/** Where a run of sub-blocks (length byte, data; a zero length ends it) starting at `at` ends. */
function afterSubBlocks(file: Buffer, at: number): number {
  while (at < file.length && file[at] !== 0) at += file[at] + 1;
  return at + 1;
}

const isXmp = (file: Buffer, at: number) => file[at] === 11 && file.subarray(at + 1, at + 12).equals(XMP_APPLICATION);
