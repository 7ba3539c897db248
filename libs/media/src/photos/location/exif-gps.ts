/**
 * Removes the GPS position from an EXIF block, in place and without changing
 * its length, so that nothing around it (a JPEG's segment lengths, a WebP's
 * chunk sizes, a multi-picture JPEG's offsets) has to move: the GPS pointer
 * (tag 0x8825) leaves its IFD, and every byte of the GPS IFD and of the values
 * it points at is zeroed. The rest (orientation, camera, date) is untouched.
 */
export type GpsRemoval = 'none' | 'removed' | 'unreadable';

const GPS_POINTER = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE ... 13 IFD). */
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

class Unreadable extends Error {}

/** `block` is a TIFF structure, or one prefixed with `Exif\0\0` as JPEG and (often) WebP store it. */
export function removeGps(block: Buffer): GpsRemoval {
  const tiff = block.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? block.subarray(6) : block;
  try {
    return new TiffEditor(tiff).removeGps() ? 'removed' : 'none';
  } catch (error) {
    if (error instanceof Unreadable || error instanceof RangeError) return 'unreadable';
    throw error;
  }
}

class TiffEditor {
  private readonly little: boolean;

  constructor(private readonly tiff: Buffer) {
    const order = tiff.subarray(0, 2).toString('latin1');
    if (order !== 'II' && order !== 'MM') throw new Unreadable();
    this.little = order === 'II';
    if (this.u16(2) !== 42) throw new Unreadable();
  }

  /** Looks in IFD0, where the pointer belongs, and in IFD1, where a careless writer may have put it. */
  removeGps(): boolean {
    let removed = false;
    let ifd = this.u32(4);
    for (let depth = 0; depth < 2 && ifd !== 0; depth++) {
      const gps = this.takePointer(ifd);
      if (gps !== undefined) {
        this.zeroIfd(gps);
        removed = true;
      }
      ifd = this.u32(ifd + 2 + this.u16(ifd) * 12);
    }
    return removed;
  }

  /** Removes the GPS pointer entry from an IFD (the later entries and the next-IFD offset move up); answers where it pointed. */
  private takePointer(ifd: number): number | undefined {
    const count = this.u16(ifd);
    const end = ifd + 2 + count * 12 + 4;
    this.check(end);
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      if (this.u16(entry) !== GPS_POINTER) continue;
      const target = this.u32(entry + 8);
      this.tiff.copy(this.tiff, entry, entry + 12, end);
      this.tiff.fill(0, end - 12, end);
      this.w16(ifd, count - 1);
      return target;
    }
    return undefined;
  }

  /** Zeroes an IFD: its entries, its next-IFD offset and every value stored outside it. */
  private zeroIfd(ifd: number): void {
    const count = this.u16(ifd);
    const end = ifd + 2 + count * 12 + 4;
    this.check(end);
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      const size = TYPE_SIZES[this.u16(entry + 2)];
      if (size === undefined) throw new Unreadable();
      const length = size * this.u32(entry + 4);
      if (length <= 4) continue;
      const at = this.u32(entry + 8);
      this.check(at + length);
      this.tiff.fill(0, at, at + length);
    }
    this.tiff.fill(0, ifd, end);
  }

  private check(end: number) {
    if (end > this.tiff.length) throw new Unreadable();
  }

  private u16(at: number) {
    return this.little ? this.tiff.readUInt16LE(at) : this.tiff.readUInt16BE(at);
  }

  private u32(at: number) {
    return this.little ? this.tiff.readUInt32LE(at) : this.tiff.readUInt32BE(at);
  }

  private w16(at: number, value: number) {
    if (this.little) this.tiff.writeUInt16LE(value, at);
    else this.tiff.writeUInt16BE(value, at);
  }
}
