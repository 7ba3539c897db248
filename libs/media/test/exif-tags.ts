/**
 * The tags of an EXIF block's first IFD, read here on their own rather than
 * with the code under test: a test that parsed with the stripper's parser
 * would miss whatever that parser misses. `metadata().exif` from sharp gives
 * the block, with or without its `Exif\0\0` prefix.
 */
export function ifd0Tags(exif: Buffer): number[] {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) throw new Error('not a TIFF block');
  const ifd = u32(4);
  return Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
}

/** The EXIF tag that points at the GPS IFD. */
export const GPS_IFD_POINTER = 0x8825;
export const ORIENTATION = 0x0112;

/** The GPS latitude the fixtures carry, 51°30'0", as the three RATIONALs an EXIF writer stores (either byte order). */
export function latitudeBytes(): Buffer[] {
  const values = [51, 1, 30, 1, 0, 1];
  const little = Buffer.alloc(24);
  const big = Buffer.alloc(24);
  values.forEach((value, i) => {
    little.writeUInt32LE(value, i * 4);
    big.writeUInt32BE(value, i * 4);
  });
  return [little, big];
}
