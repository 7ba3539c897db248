import { foldForSearch, holdsEveryTerm } from '@vault/contracts';

interface IndexedEntry {
  id: string;
  /** Milliseconds since the epoch: the list's order, newest first. */
  createdAt: number;
  /** Title and content folded for search (foldForSearch), a line break between: a phrase never spans the two. */
  text: string;
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

  /** Another index holding the same entries (the text strings are shared, not copied). */
  copy(): SearchIndex {
    const copy = new SearchIndex();
    for (const [id, entry] of this.byId) copy.byId.set(id, entry);
    copy.ordered = this.ordered;
    copy.sorted = this.sorted;
    return copy;
  }

  /** Adds or replaces an entry; `fold` is foldForSearch or a batchFolder of it, for many entries at once. */
  put(entry: { id: string; createdAt: Date; title?: string; content: string }, fold: (text: string) => string = foldForSearch): void {
    const text = `${entry.title ? fold(entry.title) : ''}\n${fold(entry.content)}`;
    this.byId.set(entry.id, { id: entry.id, createdAt: entry.createdAt.getTime(), text });
    this.sorted = false;
  }

  remove(id: string): void {
    if (this.byId.delete(id)) this.sorted = false;
  }

  /** The ids of the entries holding every term, newest first, skipping `offset` and at most `limit`. */
  match(terms: readonly string[], offset: number, limit: number): string[] {
    const found: string[] = [];
    let skipped = 0;
    for (const entry of this.inOrder()) {
      if (!holdsEveryTerm(entry.text, terms)) continue;
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
