import { beforeEach, expect, it } from '@jest/globals';
import { ListPhotos, LocatePhoto, RegisterPhoto, RequestPhotoUpload, type Photo } from '@vault/contracts';
import sharp from 'sharp';
import { GPS_IFD_POINTER, ORIENTATION, ifd0Tags, latitudeBytes } from './exif-tags.js';
import { failureOf, type StoreUnderTest } from './media.behaviour.js';
import { jpegWithLocation, pixelsOf, pngWithLocation, polyglots, webpWithLocation } from './photo-fixtures.js';

const NOT_AN_IMAGE = 'The file is not an image (jpeg, png, gif or webp)';

/**
 * Finding 8: what the vault keeps of a photo is what the owner meant to keep.
 * Location data goes at registration unless the owner asks to keep it, and a
 * file that is not only an image (a polyglot) or not one at all is refused.
 * Run against both stores, through media-svc's calls, reading the photo back
 * as the gateway serves it.
 */
export function describePhotoContent(store: StoreUnderTest) {
  const rpc = () => store.stack().rpc;

  beforeEach(async () => {
    await store.stack().eraser.eraseEverything();
  });

  async function register(body: Buffer, keepLocation?: boolean): Promise<{ photo: Photo; served: Buffer }> {
    const upload = await rpc().send(RequestPhotoUpload, {});
    expect((await store.put(upload, body, 'image/jpeg')).status).toBe(200);
    const photo = await rpc().send(RegisterPhoto, { photoURL: upload.uploadURL, ...(keepLocation === undefined ? {} : { keepLocation }) });
    const located = await rpc().send(LocatePhoto, { id: photo.id });
    const served = await store.read(located.source);
    expect(located.size).toBe(served.length);
    expect(photo.size).toBe(served.length);
    return { photo, served };
  }

  /** No GPS IFD, none of the position's bytes anywhere in the file, no position in XMP. */
  async function expectNoLocation(served: Buffer) {
    const metadata = await sharp(served).metadata();
    expect(metadata.exif).toBeDefined();
    expect(ifd0Tags(metadata.exif!)).not.toContain(GPS_IFD_POINTER);
    for (const bytes of latitudeBytes()) expect(served.includes(bytes)).toBe(false);
    expect(served.includes(Buffer.from('GPSLatitude'))).toBe(false);
    expect(metadata.xmpAsString ?? '').not.toMatch(/GPS/);
  }

  it('serves a JPEG without its location, keeping its orientation, its other EXIF and every pixel', async () => {
    const original = await jpegWithLocation();
    expect(ifd0Tags((await sharp(original).metadata()).exif!)).toContain(GPS_IFD_POINTER);
    const { photo, served } = await register(original);
    expect(photo.contentType).toBe('image/jpeg');
    await expectNoLocation(served);
    const metadata = await sharp(served).metadata();
    expect(metadata.orientation).toBe(6);
    expect(ifd0Tags(metadata.exif!)).toEqual(expect.arrayContaining([ORIENTATION, 0x010f /* Make */, 0x0110 /* Model */]));
    // Lossless: the same pixels, not a re-encoded copy.
    expect((await pixelsOf(served)).equals(await pixelsOf(original))).toBe(true);
  });

  it.each([
    ['PNG', 'image/png', pngWithLocation],
    ['WebP', 'image/webp', webpWithLocation],
  ])('serves a %s without its location too', async (_name, contentType, make) => {
    const original = await make();
    const { photo, served } = await register(original);
    expect(photo.contentType).toBe(contentType);
    await expectNoLocation(served);
    expect((await sharp(served).metadata()).orientation).toBe(6);
    expect((await pixelsOf(served)).equals(await pixelsOf(original))).toBe(true);
  });

  it('keeps the original, location included, when the owner asks', async () => {
    const original = await jpegWithLocation();
    const { served } = await register(original, true);
    expect(served.equals(original)).toBe(true);
  });

  it('refuses polyglots and files that do not decode, with a 415, keeping nothing', async () => {
    const answers: unknown[] = [];
    const files = await polyglots();
    for (const [name, body] of files) {
      const upload = await rpc().send(RequestPhotoUpload, {});
      expect((await store.put(upload, body, 'image/jpeg')).status).toBe(200);
      const registration = rpc().send(RegisterPhoto, { photoURL: upload.uploadURL });
      answers.push({ name, ...(await failureOf(registration).catch(() => ({ status: 200, message: 'registered' }))) });
    }
    expect(answers).toEqual(files.map(([name]) => ({ name, status: 415, message: NOT_AN_IMAGE })));
    expect(await store.keys()).toEqual([]);
    expect(await rpc().send(ListPhotos, {})).toEqual([]);
  });
}
