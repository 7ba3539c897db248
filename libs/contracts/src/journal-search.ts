/**
 * How the journal's search reads text, in one place: journal-svc matches
 * entries with it and the web app highlights the same matches with it.
 *
 * A query is words and "quoted phrases"; an entry matches when every one of
 * them occurs in its title or content, ignoring case and accents ("cafe"
 * finds "Café", "STRASSE" finds "straße"). A word matches anywhere in a word
 * ("dawn" finds "Dawnbreaker"), so scripts written without spaces are found
 * too; a phrase matches its words in order, whatever spaces lie between them.
 */

/** A longer query is refused: no entry needs more to be found, and the scan stays cheap. */
export const SEARCH_QUERY_MAX = 200;
/** At most this many words and phrases in one query. */
export const SEARCH_TERMS_MAX = 16;
/**
 * A page of search answers, the web's and journal-svc's when a request names
 * none: a search looks for a few entries, so the first 20 (newest first)
 * come at once and more on demand, where the journal list pages by 50.
 */
export const SEARCH_PAGE_SIZE = 20;

/**
 * Text as search compares it: compatibility-decomposed (ﬁ is fi, ① is 1),
 * without accents, case-folded with full folding (ß is ss; the final sigma
 * is a sigma, wherever it stands), every run of white space one space.
 * Each step maps a character on its own, so folding a text whole (the
 * index, fast) and character by character (highlighting, with positions)
 * give the same string.
 */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replaceAll('ς', 'σ');
}

/**
 * Every run of white space one space. Splitting and joining is about five
 * times faster than replacing with a regular expression here (V8, text of
 * many short words).
 */
function collapseSpaces(text: string): string {
  return text.split(/\s+/).join(' ');
}

/** The text as search compares it (see fold), white space runs collapsed to one space. */
export function foldForSearch(text: string): string {
  return collapseSpaces(fold(text));
}

/** A word's fold that is empty or holds white space (a lone accent, or ¨, which is a space and an accent): the text needs collapsing again. */
interface UnevenFold {
  uneven: string;
}

/**
 * foldForSearch for many texts that share their words, as a journal does:
 * each distinct word is folded once and remembered, which makes folding a
 * whole journal about ten times faster. The same result as foldForSearch,
 * since fold maps each character on its own. The memory holds words of the
 * owner's text: keep the folder only as long as one batch (an index build)
 * and let it go with it; it forgets everything past `maxWords`.
 */
export function batchFolder(maxWords = 200_000): (text: string) => string {
  const folds = new Map<string, string | UnevenFold>();
  return (text) => {
    let uneven = false;
    const words = text.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      let folded = folds.get(words[i]);
      if (folded === undefined) {
        const plain = fold(words[i]);
        folded = plain === '' || /\s/.test(plain) ? { uneven: plain } : plain;
        if (folds.size >= maxWords) folds.clear();
        folds.set(words[i], folded);
      }
      if (typeof folded === 'string') words[i] = folded;
      else {
        uneven = true;
        words[i] = folded.uneven;
      }
    }
    const joined = words.join(' ');
    return uneven ? collapseSpaces(joined) : joined;
  };
}

/**
 * The folded text and, for each of its code units, the index in `text` of
 * the character it came from, so that a match in the folded text can be
 * shown in the original.
 */
function foldWithPositions(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    let piece = fold(char).replace(/\s+/gu, ' ');
    // Collapse white space: a space after a space adds nothing.
    if (piece.startsWith(' ') && folded.endsWith(' ')) piece = piece.slice(1);
    folded += piece;
    for (let unit = 0; unit < piece.length; unit++) origin.push(index);
    index += char.length;
  }
  return { folded, origin };
}

/**
 * The query's words and phrases, folded, without duplicates: the terms an
 * entry must all contain. Empty when the query holds nothing to look for.
 */
export function searchTerms(query: string): string[] {
  const terms = new Set<string>();
  // A phrase is what lies between two double quotes (straight or curly); an unclosed quote runs to the end.
  const pattern = /["“”„]([^"“”„]*)["“”„]?|([^\s"“”„]+)/gu;
  for (const match of query.matchAll(pattern)) {
    const term = foldForSearch(match[1] ?? match[2]).trim();
    if (term) terms.add(term);
  }
  return [...terms];
}

/** Whether the folded text holds every term (the terms as searchTerms gives them). */
export function holdsEveryTerm(foldedText: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!foldedText.includes(term)) return false;
  return true;
}

/**
 * Where the terms occur in `text`, as [start, end) ranges of the original
 * string, sorted and merged where they touch or overlap: what the web app
 * marks as the matching part.
 */
export function matchRanges(text: string, terms: readonly string[]): Array<[number, number]> {
  const { folded, origin } = foldWithPositions(text);
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + term.length)) {
      // From the character of the match's first folded unit to the end of the character of its last.
      const last = origin[at + term.length - 1];
      ranges.push([origin[at], last + String.fromCodePoint(text.codePointAt(last) ?? 0).length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** `text` cut into its runs, each matching the terms or not, in order (one unmatched run when nothing matches). */
export function matchedPieces(text: string, terms: readonly string[]): Array<{ text: string; matched: boolean; at: number }> {
  const pieces: Array<{ text: string; matched: boolean; at: number }> = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, terms)) {
    if (start > at) pieces.push({ text: text.slice(at, start), matched: false, at });
    pieces.push({ text: text.slice(start, end), matched: true, at: start });
    at = end;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), matched: false, at });
  return pieces;
}
