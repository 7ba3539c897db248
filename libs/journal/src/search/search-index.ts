import { foldForSearch, holdsEveryTerm } from '@vault/contracts';

interface IndexedEntry {
  id: string;
  /** Milliseconds since the epoch: the list's order, newest first. */
  createdAt: number;
  /**
   * Title and content folded for search (foldForSearch), a line break
   * between: a phrase never spans the two. Kept as its UTF-8 bytes (see
   * asBytes), not as the folded string.
   */
  bytes: string;
}

/**
 * Where the UTF-8 of a text is written before it becomes a byte string:
 * one buffer, grown as needed and wiped after each use, so that no text
 * is left in it once an index is dropped.
 */
let scratch = Buffer.alloc(0);

/** Room in the scratch for `units` UTF-16 code units in UTF-8 (at most three bytes each: a pair takes four). */
function scratchFor(units: number): Buffer {
  if (scratch.length < units * 3) scratch = Buffer.alloc(Math.max(units * 3, 64 * 1024));
  return scratch;
}

/**
 * The texts' UTF-8 bytes, in order, as a string of one character a byte
 * (latin1). V8 keeps that string at one byte a character, where the
 * folded text, once it holds one character past U+00FF (Greek, Japanese,
 * a typographic quote), takes two bytes for every character: for a
 * journal in Latin letters with a few such words, half the memory. A term
 * made a byte string too is found in it exactly where the term occurs in
 * the text: UTF-8 is self-synchronising, no character's bytes begin
 * inside another's. The string is flat, so the first search does not
 * flatten (copy) every entry's text as it would a concatenation.
 */
function asBytes(...texts: string[]): string {
  const buffer = scratchFor(texts.reduce((units, text) => units + text.length, 0));
  let length = 0;
  for (const text of texts) length += buffer.write(text, length, 'utf8');
  const bytes = buffer.toString('latin1', 0, length);
  buffer.fill(0, 0, length);
  return bytes;
}

/**
 * The journal's text as search reads it, in this process's memory only:
 * folded title and content per entry, in the list's order. No word list,
 * no hashes, no counts: a plain scan, so nothing derived from the text has
 * to be kept anywhere but here, and it goes when the index is dropped.
 */
export class SearchIndex {
  private readonly byId = new Map<string, IndexedEntry>();
  /** byId's entries newest first (created, then id, both descending, as the list), sorted again after a change. */
  private ordered: IndexedEntry[] = [];
  private sorted = true;

  get size(): number {
    return this.byId.size;
  }

  /** Another index holding the same entries (the texts are shared, not copied). */
  copy(): SearchIndex {
    const copy = new SearchIndex();
    for (const [id, entry] of this.byId) copy.byId.set(id, entry);
    copy.ordered = this.ordered;
    copy.sorted = this.sorted;
    return copy;
  }

  /** Adds or replaces an entry; `fold` is foldForSearch or a batchFolder of it, for many entries at once. */
  put(entry: { id: string; createdAt: Date; title?: string; content: string }, fold: (text: string) => string = foldForSearch): void {
    const bytes = asBytes(entry.title ? fold(entry.title) : '', '\n', fold(entry.content));
    this.byId.set(entry.id, { id: entry.id, createdAt: entry.createdAt.getTime(), bytes });
    this.sorted = false;
  }

  remove(id: string): void {
    if (this.byId.delete(id)) this.sorted = false;
  }

  /** The ids of the entries holding every term (folded, as searchTerms gives them), newest first, skipping `offset` and at most `limit`. */
  match(terms: readonly string[], offset: number, limit: number): string[] {
    const termBytes = terms.map((term) => asBytes(term));
    const found: string[] = [];
    let skipped = 0;
    for (const entry of this.inOrder()) {
      if (!holdsEveryTerm(entry.bytes, termBytes)) continue;
      if (skipped < offset) skipped++;
      else if (found.push(entry.id) === limit) break;
    }
    return found;
  }

  private inOrder(): IndexedEntry[] {
    if (!this.sorted) {
      this.ordered = [...this.byId.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      this.sorted = true;
    }
    return this.ordered;
  }
}
