import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { count, gte, inArray, sql } from 'drizzle-orm';
import { InjectJournalDb } from '../database.js';
import { entries, entryRemovals, type EntryRow } from '../schema/entries.table.js';

/** What the search index needs of a row: its id, time and sealed text. */
export type SealedEntry = Pick<EntryRow, 'id' | 'titleCiphertext' | 'contentCiphertext' | 'createdAt' | 'updatedAt'>;

const SEALED = {
  id: entries.id,
  titleCiphertext: entries.titleCiphertext,
  contentCiphertext: entries.contentCiphertext,
  createdAt: entries.createdAt,
  updatedAt: entries.updatedAt,
};

/**
 * Sealed rows fetched at once when the index is built or brought up to
 * date: about 150 KB of ciphertext, and 100 round trips for 10,000 entries.
 */
export const SEARCH_FEED_BATCH = 100;

/** The oldest transaction still running, as text: every transaction before it has ended. */
const HORIZON = sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text`;

/**
 * Whether a row was written or removed at or after the transaction `since`.
 * It compares the newest revisions, which PostgreSQL reads from the end of
 * their indexes whatever its statistics say: as `exists (... where revision
 * >= since)`, a table not yet analysed (just restored, or filled since the
 * start) was scanned whole, 3 ms a search at 10,000 entries.
 */
const changedSince = (since: string) =>
  sql<boolean>`(coalesce((select max(${entries.revision}) from ${entries}) >= ${since}::xid8, false)
    or coalesce((select max(${entryRemovals.revision}) from ${entryRemovals}) >= ${since}::xid8, false))`;

/** One moment of the table: changes from `since` on, and what the index must hold after them. */
export interface Glance {
  /** The oldest transaction still running: every row written before it is visible now, and the next look starts here. */
  horizon: string;
  /** How many entries exist; left out when the glance was not asked to count. */
  total?: number;
  /** Whether a row was written or removed at or after `since`. */
  changed: boolean;
}

/** What a read hands over as it goes: the removed ids, then (once ready) the written rows. */
export interface FeedTaker {
  /** The ids removed since the read's `since`, before any written row. */
  removed(ids: string[]): void;
  /** Before the first row, when the table holds any: what `written` needs (the data key) is made ready here. */
  ready(): Promise<void>;
  /** Each row written since the read's `since`, one at a time: what is done with it is done before the next is taken. */
  written(row: SealedEntry): void;
}

/** A row of the cursor as node-postgres (or PGlite) gives it: named by column, not yet mapped by Drizzle. */
type RawRow = Record<string, unknown>;

/** The next rows of the read's cursor. */
async function fetchBatch(tx: Database): Promise<RawRow[]> {
  const { rows } = (await tx.execute(sql.raw(`fetch ${SEARCH_FEED_BATCH} from search_feed`))) as unknown as { rows: RawRow[] };
  return rows;
}

/** A raw row mapped as Drizzle maps a selected one (the timestamps from text, the bytes as a Buffer). */
function sealedEntry(row: RawRow): SealedEntry {
  const column = (field: { name: string; mapFromDriverValue(value: unknown): unknown }) => field.mapFromDriverValue(row[field.name]);
  return {
    id: row[entries.id.name] as string,
    titleCiphertext: row[entries.titleCiphertext.name] === null ? null : (column(entries.titleCiphertext) as Buffer),
    contentCiphertext: column(entries.contentCiphertext) as Buffer,
    createdAt: column(entries.createdAt) as Date,
    updatedAt: column(entries.updatedAt) as Date,
  };
}

/**
 * The search index's view of the entries table: what changed since a
 * transaction id (rows carry the id of the transaction that wrote them last;
 * a removal leaves the entry's id). A change that is still being committed
 * has an id at or after the horizon, so it is read again at the next look.
 */
@Injectable()
export class SearchFeedRepository {
  constructor(@InjectJournalDb() private readonly db: Database) {}

  /**
   * One statement, so one snapshot: the horizon, whether anything changed
   * since `since` and, when `counted`, the count (a scan, the one part that
   * grows with the journal).
   */
  async glance(since: string, counted: boolean): Promise<Glance> {
    const changed = changedSince(since);
    if (!counted) {
      const { rows } = (await this.db.execute(sql`select ${HORIZON} as horizon, ${changed} as changed`)) as unknown as { rows: Glance[] };
      return rows[0];
    }
    const [row] = await this.db.select({ horizon: HORIZON, total: count(), changed }).from(entries);
    return row;
  }

  /**
   * In one snapshot (repeatable read): the horizon and the count, returned;
   * the ids removed since `since`, then the rows written since (every row
   * when `since` is undefined), handed to `take` as they are read. The rows
   * come through a cursor, SEARCH_FEED_BATCH at a time, and each is let go
   * once taken: the index is built with a few sealed rows in memory, not
   * the whole journal's. Rows held longer outlive a few young-generation
   * collections, so they and their buffers are freed only by a full one,
   * and the memory they took stays resident (the allocator keeps it):
   * building from 10,000 entries raises the resident memory by about
   * 25 MB this way, 40 to 50 when each batch is kept until it is done.
   */
  read(since: string | undefined, take: FeedTaker): Promise<Glance> {
    return this.db.transaction(
      async (tx) => {
        const [moment] = await tx.select({ horizon: HORIZON, total: count() }).from(entries);
        if (since !== undefined)
          take.removed((await tx.select({ id: entryRemovals.id }).from(entryRemovals).where(gte(entryRemovals.revision, since))).map((row) => row.id));
        if (moment.total > 0) {
          await take.ready();
          const written = tx
            .select(SEALED)
            .from(entries)
            .where(since === undefined ? undefined : gte(entries.revision, since));
          await tx.execute(sql`declare search_feed no scroll cursor for ${written}`);
          for (let batch = await fetchBatch(tx); batch.length > 0; batch = await fetchBatch(tx)) {
            // Popped, not iterated: a row taken is gone from the batch (the index's order is its own).
            for (let row = batch.pop(); row !== undefined; row = batch.pop()) take.written(sealedEntry(row));
          }
        }
        return { ...moment, changed: true };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /**
   * In one statement, so one snapshot: whether a row was written or removed
   * at or after `since`, and the rows of these ids that exist. When nothing
   * changed, an index current at `since` is current at this snapshot, and
   * the rows are those its answer names: a search's one round trip.
   */
  async rowsIfUnchanged(since: string, ids: string[]): Promise<{ changed: boolean; rows: SealedEntry[] }> {
    const found = ids.length === 0 ? sql`false` : inArray(entries.id, ids);
    const statement = sql`select ${changedSince(since)} as changed, ${sql.join(Object.values(SEALED), sql`, `)}
      from (select) as moment left join ${entries} on ${found}`;
    const { rows } = (await this.db.execute(statement)) as unknown as { rows: RawRow[] };
    return {
      changed: rows[0].changed === true,
      rows: rows.flatMap((row) => (row[entries.id.name] === null ? [] : [sealedEntry(row)])),
    };
  }

  /** The rows of these ids that still exist. */
  rows(ids: string[]): Promise<SealedEntry[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.select(SEALED).from(entries).where(inArray(entries.id, ids));
  }
}
