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
 * refusal in about 10^5 photos at worst. The markers, ASCII letters in
 * either case:
 * - `<script`, `<iframe` or `<!doctype`;
 * - `<html` or `<body`, then white space, `/` or `>`;
 * - `<svg`, `<img`, `<object`, `<embed` or `<math`, then white space or `/`,
 *   then at most 256 printable characters and `>`.
 *
 * The bytes are compared where they lie, from each `<`: text made of the
 * file (a window at a time) was 10 MB of garbage per photo for the
 * collector, which let the heap grow by some 30 MB over an import of 200.
 */
export function containsMarkup(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(LESS_THAN); at !== -1; at = bytes.indexOf(LESS_THAN, at + 1)) {
    if (isMarkupAt(bytes, at + 1)) return true;
  }
  return false;
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;

const names = (...list: string[]) => list.map((name) => Buffer.from(name, 'latin1'));
/** Markup whatever follows the name. */
const ALWAYS = names('script', 'iframe', '!doctype');
/** A page's own elements: markup when the name ends there. */
const PAGE = names('html', 'body');
/** Elements that run script from an attribute: markup when attributes and a `>` follow the name. */
const WITH_ATTRIBUTES = names('svg', 'img', 'object', 'embed', 'math');
/** The longest run of attribute text searched for its closing `>`. */
const LONGEST_ATTRIBUTES = 256;

/** Whether the text after a `<`, from `at`, is one of the markers. */
function isMarkupAt(bytes: Buffer, at: number): boolean {
  for (const name of ALWAYS) if (isNameAt(bytes, at, name)) return true;
  for (const name of PAGE) if (isNameAt(bytes, at, name) && endsPageName(bytes[at + name.length])) return true;
  for (const name of WITH_ATTRIBUTES) {
    const end = at + name.length;
    if (isNameAt(bytes, at, name) && endsName(bytes[end]) && hasClosedAttributes(bytes, end + 1)) return true;
  }
  return false;
}

/** Whether `name` (lower case) is at `at`, its letters in either case, as an HTML parser reads tag names. */
function isNameAt(bytes: Buffer, at: number, name: Buffer): boolean {
  if (at + name.length > bytes.length) return false;
  for (let i = 0; i < name.length; i++) {
    const byte = bytes[at + i]!;
    const expected = name[i]!;
    if (byte !== expected && !(isLowerCaseLetter(expected) && byte === expected - 0x20)) return false;
  }
  return true;
}

/** Whether a `>` closes a run of at most LONGEST_ATTRIBUTES printable characters starting at `from`. */
function hasClosedAttributes(bytes: Buffer, from: number): boolean {
  const last = Math.min(bytes.length - 1, from + LONGEST_ATTRIBUTES);
  for (let i = from; i <= last; i++) {
    const byte = bytes[i]!;
    if (byte === GREATER_THAN) return true;
    if (!isPrintable(byte)) return false;
  }
  return false;
}

const isLowerCaseLetter = (byte: number) => byte >= 0x61 && byte <= 0x7a;
/** Tab, line feed, form feed, carriage return and space: the white space that ends an HTML tag name. */
const isWhiteSpace = (byte: number | undefined) => byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;
const endsName = (byte: number | undefined) => isWhiteSpace(byte) || byte === SLASH;
const endsPageName = (byte: number | undefined) => endsName(byte) || byte === GREATER_THAN;
const isPrintable = (byte: number) => isWhiteSpace(byte) || (byte >= 0x20 && byte <= 0x7e);
