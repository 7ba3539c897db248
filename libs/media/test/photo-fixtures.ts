import { pngChunk, tinyGif, tinyPng } from '@vault/testing';
import sharp from 'sharp';

/**
 * Real images made with sharp in the test, carrying what a phone writes: a
 * GPS position in EXIF and in XMP, and an orientation (6: the camera was
 * held upright, the pixels are stored sideways).
 */
const GPS_EXIF = {
  IFD0: { Make: 'Vault Test', Model: 'Pocket Camera' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
};
const GPS_XMP =
  '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ' +
  'xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.0N" exif:GPSLongitude="0,7.0W"/>' +
  '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

/** Noise, so that "every pixel kept" means something. */
const picture = () => sharp({ create: { width: 48, height: 32, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });

export const jpegWithLocation = () => picture().jpeg({ quality: 85 }).withExif(GPS_EXIF).withXmp(GPS_XMP).withMetadata({ orientation: 6 }).toBuffer();
export const pngWithLocation = () => picture().png().withExif(GPS_EXIF).withXmp(GPS_XMP).withMetadata({ orientation: 6 }).toBuffer();
export const webpWithLocation = () => picture().webp({ lossless: true }).withExif(GPS_EXIF).withXmp(GPS_XMP).withMetadata({ orientation: 6 }).toBuffer();

/** The decoded pixels, as stored (not rotated): equal pixels mean nothing was re-encoded. */
export const pixelsOf = async (image: Buffer) => sharp(image).raw().toBuffer();

const HTML = '<html><body><script>document.title = "pwned"</script></body></html>';

/**
 * Files that are an image to an image decoder and a page to an HTML parser,
 * and two that only look like images. Each decodes (or not) as named.
 */
export async function polyglots(): Promise<Array<[string, Buffer]>> {
  const jpeg = await picture().jpeg().toBuffer();
  const comment = Buffer.from(HTML, 'latin1');
  const com = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0, 0]), comment]);
  com.writeUInt16BE(comment.length + 2, 2);
  const png = tinyPng();
  const gif = tinyGif();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">', 'latin1');
  const gifComment = Buffer.concat([Buffer.from([0x21, 0xfe, svg.length]), svg, Buffer.from([0])]);
  return [
    ['a JPEG with an HTML page in a comment segment', Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)])],
    ['a JPEG with an HTML page after its end', Buffer.concat([jpeg, comment])],
    ['a JPEG signature followed by HTML', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), comment])],
    [
      'a PNG with a script in a text chunk',
      Buffer.concat([png.subarray(0, 33), pngChunk('tEXt', Buffer.from(`Comment\0${HTML}`, 'latin1')), png.subarray(33)]),
    ],
    ['a GIF with an SVG in a comment', Buffer.concat([gif.subarray(0, gif.length - 1), gifComment, gif.subarray(gif.length - 1)])],
    ['a JPEG cut short', jpeg.subarray(0, Math.floor(jpeg.length / 2))],
  ];
}
