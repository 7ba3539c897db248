import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { removeGps } from './exif-gps.js';
import { ownLocationStripped, withoutLocation } from './strip-location.js';

const GPS = { IFD0: { Make: 'Vault Test' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } };
const GPS_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description exif:GPSLatitude="51,30.0N"/></rdf:RDF></x:xmpmeta>';
const picture = () => sharp({ create: { width: 24, height: 16, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 120, sigma: 50 } } });

/** The tags of an EXIF block's first IFD (with or without its `Exif\0\0` prefix). */
function ifd0Tags(exif: Buffer): number[] {
  const tiff = exif.subarray(0, 4).toString('latin1') === 'Exif' ? exif.subarray(6) : exif;
  const le = tiff[0] === 0x49;
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd = le ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
}

async function expectStrippedAndWhole(original: Buffer, stripped: Buffer) {
  const metadata = await sharp(stripped).metadata();
  if (metadata.exif) expect(ifd0Tags(metadata.exif)).not.toContain(0x8825);
  expect(metadata.xmpAsString ?? '').not.toMatch(/GPS/);
  expect((await sharp(stripped).raw().toBuffer()).equals(await sharp(original).raw().toBuffer())).toBe(true);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framed = Buffer.alloc(body.length + 8);
  framed.writeUInt32BE(data.length, 0);
  body.copy(framed, 4);
  framed.writeUInt32BE(crc32(body), framed.length - 4);
  return framed;
}

describe('removing the location from an EXIF block', () => {
  /** A big-endian TIFF by hand: IFD0 (orientation, GPS pointer), the GPS IFD, its latitude stored outside it. */
  function bigEndianExif(): Buffer {
    const tiff = Buffer.alloc(92);
    tiff.write('MM', 0, 'latin1');
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(2, 8);
    tiff.writeUInt16BE(0x0112, 10);
    tiff.writeUInt16BE(3, 12);
    tiff.writeUInt32BE(1, 14);
    tiff.writeUInt16BE(6, 18);
    tiff.writeUInt16BE(0x8825, 22);
    tiff.writeUInt16BE(4, 24);
    tiff.writeUInt32BE(1, 26);
    tiff.writeUInt32BE(38, 30);
    tiff.writeUInt16BE(2, 38);
    tiff.writeUInt16BE(0x0001, 40);
    tiff.writeUInt16BE(2, 42);
    tiff.writeUInt32BE(2, 44);
    tiff.write('N\0', 48, 'latin1');
    tiff.writeUInt16BE(0x0002, 52);
    tiff.writeUInt16BE(5, 54);
    tiff.writeUInt32BE(3, 56);
    tiff.writeUInt32BE(68, 60);
    for (const [i, value] of [51, 1, 30, 1, 0, 1].entries()) tiff.writeUInt32BE(value, 68 + i * 4);
    return tiff;
  }

  it('takes the GPS pointer out of IFD0 and zeroes the GPS IFD and its values, keeping the length and the rest', () => {
    const exif = bigEndianExif();
    expect(removeGps(exif)).toBe('removed');
    expect(exif.length).toBe(92);
    expect(ifd0Tags(exif)).toEqual([0x0112]);
    expect(exif.readUInt16BE(18)).toBe(6);
    // IFD0's next-IFD offset moved up with its entries; from there on, nothing is left.
    expect(exif.readUInt32BE(22)).toBe(0);
    expect(exif.subarray(22).every((byte) => byte === 0)).toBe(true);
  });

  it('leaves a block without GPS as it is, and says when it cannot read one', () => {
    const exif = bigEndianExif();
    removeGps(exif);
    const again = Buffer.from(exif);
    expect(removeGps(again)).toBe('none');
    expect(again.equals(exif)).toBe(true);
    expect(removeGps(bigEndianExif().subarray(0, 50))).toBe('unreadable');
    expect(removeGps(Buffer.from('not a tiff at all'))).toBe('unreadable');
  });
});

describe('a photo without its location', () => {
  it('keeps a JPEG byte for byte but for its GPS and its XMP, and does not touch the caller’s buffer', async () => {
    const original = await picture().jpeg().withExif(GPS).withXmp(GPS_XMP).withMetadata({ orientation: 8 }).toBuffer();
    const before = Buffer.from(original);
    const stripped = withoutLocation(original, 'image/jpeg');
    expect(original.equals(before)).toBe(true);
    expect(stripped.length).toBe(original.length);
    await expectStrippedAndWhole(original, stripped);
    expect((await sharp(stripped).metadata()).orientation).toBe(8);
  });

  it('edits a buffer handed over in place, and answers a photo with nothing to take out as it is', async () => {
    const jpeg = await picture().jpeg().withExif(GPS).toBuffer();
    const handedOver = Buffer.from(jpeg);
    expect(ownLocationStripped(handedOver, 'image/jpeg')).toBe(handedOver);
    await expectStrippedAndWhole(jpeg, handedOver);
    for (const [type, plain] of [
      ['image/png', await picture().png().toBuffer()],
      ['image/gif', await picture().gif().toBuffer()],
    ] as const) {
      expect(ownLocationStripped(plain, type)).toBe(plain);
      expect(withoutLocation(plain, type)).toBe(plain);
    }
  });

  it('empties a JPEG’s extended XMP, read whole across its segments', async () => {
    const jpeg = await picture().jpeg().toBuffer();
    const ext = (part: string) =>
      segment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1'), Buffer.alloc(40, 0x41), Buffer.from(part, 'latin1')]));
    const parts = [ext('<rdf:Description exif:GP'), ext('SLatitude="51,30.0N"/>')];
    const original = Buffer.concat([jpeg.subarray(0, 2), ...parts, jpeg.subarray(2)]);
    const stripped = withoutLocation(original, 'image/jpeg');
    expect(stripped.length).toBe(original.length);
    expect(stripped.includes(Buffer.from('SLatitude'))).toBe(false);
    expect(stripped.includes(Buffer.from('http://ns.adobe.com/xmp/extension/'))).toBe(true);
    await expectStrippedAndWhole(original, stripped);
  });

  it('strips the pictures stored after the first one too (a multi-picture JPEG), without moving them', async () => {
    const first = await picture().jpeg().toBuffer();
    const second = await picture().jpeg().withExif(GPS).toBuffer();
    const stripped = withoutLocation(Buffer.concat([first, second]), 'image/jpeg');
    expect(stripped.subarray(0, first.length).equals(first)).toBe(true);
    const after = stripped.subarray(first.length);
    expect(after.length).toBe(second.length);
    expect(ifd0Tags((await sharp(after).metadata()).exif!)).not.toContain(0x8825);
  });

  it('removes a PNG’s GPS from eXIf and drops XMP and raw-profile chunks that carry a place', async () => {
    const png = await picture().png().withExif(GPS).withXmp(GPS_XMP).toBuffer();
    const rawProfile = pngChunk('zTXt', Buffer.from('Raw profile type exif\0\0xxxx', 'latin1'));
    const original = Buffer.concat([png.subarray(0, 33), rawProfile, png.subarray(33)]);
    const stripped = withoutLocation(original, 'image/png');
    expect(stripped.includes(Buffer.from('Raw profile type'))).toBe(false);
    expect(stripped.includes(Buffer.from('XML:com.adobe.xmp'))).toBe(false);
    await expectStrippedAndWhole(original, stripped);
    // Every chunk's CRC holds, or the decoder above would have refused it.
    await sharp(stripped, { failOn: 'warning' }).stats();
  });

  it('keeps a WebP’s length, its EXIF without GPS and an empty XMP', async () => {
    const original = await picture().webp({ lossless: true }).withExif(GPS).withXmp(GPS_XMP).withMetadata({ orientation: 3 }).toBuffer();
    const stripped = withoutLocation(original, 'image/webp');
    expect(stripped.length).toBe(original.length);
    await expectStrippedAndWhole(original, stripped);
    expect((await sharp(stripped).metadata()).orientation).toBe(3);
  });

  it('drops a GIF’s XMP extension when it names a place, and keeps one that does not', async () => {
    const gif = await picture().gif().toBuffer();
    // XMP in GIF: an application extension whose data runs until a 258-byte "magic trailer" ends it.
    const xmp = (text: string) =>
      Buffer.concat([
        Buffer.from([0x21, 0xff, 11]),
        Buffer.from('XMP DataXMP', 'latin1'),
        Buffer.from(text, 'latin1'),
        Buffer.from([1, ...Array.from({ length: 256 }, (_, i) => 255 - i), 0]),
      ]);
    const at = gif.length - 1;
    const withPlace = Buffer.concat([gif.subarray(0, at), xmp(GPS_XMP), gif.subarray(at)]);
    const stripped = withoutLocation(withPlace, 'image/gif');
    expect(stripped.equals(gif)).toBe(true);
    const harmless = Buffer.concat([gif.subarray(0, at), xmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'), gif.subarray(at)]);
    expect(withoutLocation(harmless, 'image/gif').equals(harmless)).toBe(true);
    await sharp(stripped, { failOn: 'error' }).stats();
  });
});
