import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk (length, type, data, CRC), for building PNGs in tests. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, valid PNG: one red pixel, made here rather than shipped. */
export function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const scanline = Buffer.from([0, 0xff, 0x00, 0x00, 0xff]); // filter byte, then the pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid PNG of one pixel whose colour is `n`: each photo of a test its own bytes. */
export function numberedPng(n: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 6;
  const scanline = Buffer.from([0, n & 0xff, (n >> 8) & 0xff, 0x80, 0xff]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The classic 1x1 transparent GIF. */
export const tinyGif = () => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const textFile = () => Buffer.from('Meeting notes: this is text, whatever its name says.\n');
export const htmlFile = () => Buffer.from('<!doctype html><html><body><script>document.title = "pwned"</script></body></html>\n');

/** 12 MB whose first bytes are a PNG's, so only its size can refuse it. */
export function twelveMegabytes(): Buffer {
  const big = Buffer.alloc(12 * 1024 * 1024, 0x41);
  tinyPng().copy(big);
  return big;
}
