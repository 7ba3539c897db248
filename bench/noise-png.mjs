// Real photos of about 10 MB for the archive benches: they cannot be compressed away.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** PNG chunk: length, type, data, CRC. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG just under 10 MB (10,485,760 bytes): 1600x1600 pixels of noise,
 * stored (deflate level 0). `n` changes the first pixel: every photo is a
 * different file.
 */
const SIDE = 1600;
const noise = randomBytes(SIDE * (SIDE * 4 + 1));
export function noisePng(n) {
  const pixels = Buffer.from(noise);
  for (let row = 0; row < SIDE; row++) pixels[row * (SIDE * 4 + 1)] = 0;
  pixels.writeUInt32BE(n, 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
