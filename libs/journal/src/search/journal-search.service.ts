import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { batchFolder, type JournalEntry, SEARCH_PAGE_SIZE, searchTerms } from '@vault/contracts';
import { contextLogger } from '@vault/platform';
import { DataKeyService } from '../crypto/data-key.service.js';
import { openEntry } from '../entries/entry-cipher.js';
import { SearchIndex } from './search-index.js';
import { type FeedTaker, type SealedEntry, SearchFeedRepository } from './search-feed.repository.js';

/** How often an idle index looks for changes made through other replicas, and for an erase. */
export const SEARCH_REFRESH_MS = 2_000;

/**
 * Journal search over the decrypted entries, kept in this process's memory
 * (SearchIndex) and nowhere else. The index follows the table, not the
 * requests: at every search (in the statement that reads the answer's
 * rows), and every SEARCH_REFRESH_MS, it asks whether anything was written
 * or removed since its last look, and reads it if so
 * (search-feed.repository.ts), so an entry saved or deleted through any
 * replica, and a restore, show at the next search. Rows removed without a note (an erase, a restore's
 * discard: every row at once) are found by counting, which the timer's looks
 * do (a search's look skips the count, which grows with the journal): until
 * then such an entry is left out of the answers, as its row is gone, and at
 * the next timed look the index is built again.
 */
@Injectable()
export class JournalSearchService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = contextLogger('JournalSearch');
  private index = new SearchIndex();
  /** Where the next look starts (a transaction id); undefined: build the index from every row. */
  private horizon: string | undefined;
  /** Counts erases: a look that began before one must not bring back what it read. */
  private generation = 0;
  /** The look under way, and the one queued behind it for callers that came during it. */
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Whether the next look counts the rows (the timer's looks do). */
  private countDue = false;

  constructor(
    private readonly feed: SearchFeedRepository,
    private readonly keys: DataKeyService,
  ) {}

  /** Builds the index in the background: the service answers at once, a search waits for it. */
  onApplicationBootstrap() {
    this.refresh().catch((error: Error) => this.logger.warn({ err: error.message }, 'The search index could not be built yet; the next search tries again'));
    this.timer = setInterval(() => {
      this.countDue = true;
      this.refresh().catch((error: Error) => this.logger.warn({ err: error.message }, 'The search index could not look for changes'));
    }, SEARCH_REFRESH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.running.catch(() => undefined);
  }

  /** How many entries the index holds now (no look first). */
  get indexed(): number {
    return this.index.size;
  }

  /** After an erase: the decrypted text leaves memory now; the next look builds the index from what is left. */
  forget(): void {
    this.index = new SearchIndex();
    this.horizon = undefined;
    this.generation++;
  }

  /**
   * The entries holding every term of `query`, newest first. Mostly one
   * round trip: the index as it is answers, and one statement reads those
   * rows and whether anything changed since the index's horizon; only when
   * something did (or the index is not built) does a look come first.
   */
  async search(query: string, page: { limit?: number; offset?: number }): Promise<JournalEntry[]> {
    const match = () => this.index.match(searchTerms(query), page.offset ?? 0, page.limit ?? SEARCH_PAGE_SIZE);
    // Taken together: the index swapped in by a look or an erase comes with its horizon.
    const { index, horizon, generation } = this;
    if (horizon !== undefined) {
      const ids = match();
      const current = await this.feed.rowsIfUnchanged(horizon, ids);
      if (!current.changed && index === this.index && generation === this.generation) return this.opened(ids, current.rows);
    }
    await this.refresh();
    const ids = match();
    return this.opened(ids, ids.length === 0 ? [] : await this.feed.rows(ids));
  }

  /** The rows of `ids` opened, in the order of `ids`; an entry removed since the index's answer is left out. */
  private async opened(ids: string[], found: SealedEntry[]): Promise<JournalEntry[]> {
    if (ids.length === 0) return [];
    const rows = new Map(found.map((row) => [row.id, row]));
    const key = await this.keys.current();
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [openEntry(key, row)] : [];
    });
  }

  /**
   * Brings the index up to the table as it is now. Callers that come while
   * a look is under way share the next one, which starts after it: the one
   * under way may have read the table before their moment.
   */
  refresh(): Promise<void> {
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.look();
    });
    this.running = this.queued.catch(() => undefined);
    return this.queued;
  }

  private async look(): Promise<void> {
    const generation = this.generation;
    const counted = this.countDue;
    this.countDue = false;
    if (this.horizon !== undefined) {
      const glance = await this.feed.glance(this.horizon, counted);
      if (generation !== this.generation) return;
      if (!glance.changed && (glance.total === undefined || glance.total === this.index.size)) {
        this.horizon = glance.horizon;
        return;
      }
    }
    const since = this.horizon;
    // Changes go into a copy, swapped in whole once complete: a search never sees half of them.
    const index = since === undefined ? new SearchIndex() : this.index.copy();
    const read = await this.feed.read(since, this.taker(index, generation));
    if (generation !== this.generation) return;
    if (since !== undefined && index.size !== read.total) {
      // Rows went without a note (a discarded restore): build it from every row.
      this.horizon = undefined;
      return this.look();
    }
    this.index = index;
    this.horizon = read.horizon;
  }

  /**
   * What takes a read into `index`: the removals, then each written row,
   * opened, folded in and its plaintext let go before the next row is
   * read. One folder for this read only: its remembered words go with it.
   * After an erase the rest of the read is opened no more.
   */
  private taker(index: SearchIndex, generation: number): FeedTaker {
    const fold = batchFolder();
    let key: Buffer | undefined;
    return {
      removed: (ids) => {
        for (const id of ids) index.remove(id);
      },
      // Only rows bring the data key out: an empty or erased journal makes none.
      ready: async () => {
        key = await this.keys.current();
      },
      written: (row) => {
        if (generation !== this.generation) return;
        // ready() came first.
        const { id, title, content } = openEntry(key!, row);
        index.put({ id, createdAt: row.createdAt, title, content }, fold);
      },
    };
  }
}
