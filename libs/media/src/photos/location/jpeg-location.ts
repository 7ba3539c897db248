import { removeGps } from './exif-gps.js';
import { emptyInPlace, mentionsLocation } from './xmp-location.js';

const EXIF = Buffer.from('Exif\0\0', 'latin1');
const XMP = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const EXTENDED_XMP = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
/** Extended XMP: the namespace, then a 32-byte GUID, the full length and this part's offset (4 bytes each). */
const EXTENDED_XMP_HEADER = EXTENDED_XMP.length + 40;
const APP1 = 0xe1;
const SOS = 0xda;
const EOI = 0xd9;

interface Segment {
  marker: number;
  /** The payload, after the marker and its length: a view of the file, so edits land in it. */
  data: Buffer;
}

/**
 * A JPEG without its location, edited in place: EXIF's GPS IFD is removed
 * and any XMP that mentions a place is emptied, in the main picture and in
 * the pictures stored after it (a multi-picture file's depth map or gain map,
 * whose offsets must not move). Nothing changes length; the compressed image
 * data is not touched, so nothing is re-encoded.
 */
export function jpegWithoutLocation(file: Buffer): Buffer {
  let start: number | undefined = 0;
  while (start !== undefined) {
    // Something after the picture that only looks like a JPEG's start is passed over.
    const end = stripPicture(file, start) ?? start + 3;
    start = nextPicture(file, end);
  }
  return file;
}

/** Strips one picture starting at `start`; answers where it ends (after EOI), or undefined when it cannot be walked. */
function stripPicture(file: Buffer, start: number): number | undefined {
  const segments: Segment[] = [];
  const end = walk(file, start, segments);
  const extended: Buffer[] = [];
  let xmpEmptied = false;
  for (const { marker, data } of segments) {
    if (marker !== APP1) continue;
    if (startsWith(data, EXIF) && removeGps(data) === 'unreadable') data.fill(0, EXIF.length);
    if (startsWith(data, XMP) && mentionsLocation(data.subarray(XMP.length))) {
      emptyInPlace(data.subarray(XMP.length));
      xmpEmptied = true;
    }
    if (startsWith(data, EXTENDED_XMP) && data.length > EXTENDED_XMP_HEADER) extended.push(data.subarray(EXTENDED_XMP_HEADER));
  }
  // The rest of a packet too large for one segment: split anywhere, so it is read whole; it goes with its packet.
  if (extended.length > 0 && (xmpEmptied || mentionsLocation(Buffer.concat(extended)))) for (const part of extended) part.fill(0x20);
  return end;
}

/**
 * Collects the segments of the picture at `start` up to its EOI. After a
 * start-of-scan the compressed data runs until a marker that is neither a
 * stuffed 0xFF00 nor a restart marker.
 */
function walk(file: Buffer, start: number, segments: Segment[]): number | undefined {
  if (file[start] !== 0xff || file[start + 1] !== 0xd8) return undefined;
  let at = start + 2;
  while (at + 1 < file.length) {
    if (file[at] !== 0xff) return undefined;
    while (file[at + 1] === 0xff) at++;
    const marker = file[at + 1];
    if (marker === EOI) return at + 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > file.length) return undefined;
    const length = file.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > file.length) return undefined;
    segments.push({ marker, data: file.subarray(at + 4, at + 2 + length) });
    at += 2 + length;
    if (marker === SOS) at = endOfScan(file, at);
  }
  return undefined;
}

function endOfScan(file: Buffer, at: number): number {
  for (let i = at; i + 1 < file.length; i++) {
    if (file[i] !== 0xff) continue;
    const next = file[i + 1];
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return i;
  }
  return file.length;
}

/** The next picture stored after one ends (a multi-picture file's), if any. */
function nextPicture(file: Buffer, from: number): number | undefined {
  const at = file.indexOf(Buffer.from([0xff, 0xd8, 0xff]), from);
  return at < 0 ? undefined : at;
}

const startsWith = (data: Buffer, prefix: Buffer) => data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);
