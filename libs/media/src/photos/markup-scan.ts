/**
 * Whether a file carries markup a browser would run if it ever parsed the
 * file as a page (a JPEG/HTML polyglot: an image to the decoder, a page to
 * an HTML parser). The whole file is searched, comments, metadata and
 * whatever follows the image included, since an HTML parser reads it all.
 *
 * The markers are long enough that image data, which looks random, never
 * matches by chance: one in 10^15 bytes for the 7-character ones, and about
 * one in 10^12 for a short tag, which must also be followed by an attribute
 * run of printable text closed by `>`. Over a 10 MB photo that is one false
 * refusal in about 10^5 photos at worst.
 */
const MARKUP = new RegExp(
  ['<(?:script|iframe|!doctype)', '<(?:html|body)[\\t\\n\\f\\r />]', '<(?:svg|img|object|embed|math)[\\t\\n\\f\\r /][\\t\\n\\f\\r\\x20-\\x7e]{0,256}>'].join(
    '|',
  ),
  'i',
);

export function containsMarkup(bytes: Buffer): boolean {
  // latin1 maps each byte to one character, so offsets and ASCII match the bytes.
  return MARKUP.test(bytes.toString('latin1'));
}
