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

/** The longest text MARKUP can match: `<object` (7), a separator, 256 attribute characters and `>`. */
const LONGEST_MATCH = 7 + 1 + 256 + 1;
/**
 * The file is searched a window at a time, each overlapping the last by the
 * longest match, so a match across two windows is still whole in one of them;
 * a whole 10 MB photo as one string would be 10 MB more on the heap per photo.
 */
const WINDOW = 256 * 1024;

export function containsMarkup(bytes: Buffer): boolean {
  for (let start = 0; start < bytes.length; start += WINDOW - LONGEST_MATCH) {
    // latin1 maps each byte to one character, so offsets and ASCII match the bytes.
    if (MARKUP.test(bytes.toString('latin1', start, Math.min(bytes.length, start + WINDOW)))) return true;
    if (start + WINDOW >= bytes.length) break;
  }
  return false;
}
