import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { JournalEntry, RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataKeyService } from '../src/crypto/data-key.service.js';
import { fixedMasterKey } from '../src/crypto/master-key-source.js';
import { JOURNAL_MIGRATIONS } from '../src/database.js';
import { EntriesRepository } from '../src/entries/entries.repository.js';
import { sealEntry } from '../src/entries/entry-cipher.js';
import { JournalHandlers } from '../src/entries/journal.handlers.js';
import { JournalService } from '../src/entries/journal.service.js';
import { JournalEraseHandlers } from '../src/erase/journal-erase.handlers.js';
import { JournalSearchService, SEARCH_REFRESH_MS } from '../src/search/journal-search.service.js';
import { SearchFeedRepository } from '../src/search/search-feed.repository.js';
import type { SearchIndex } from '../src/search/search-index.js';

/**
 * Two journal-svc replicas on one PostgreSQL database, each with its own
 * connections, data-key holder and search index, as two pods would have:
 * what one writes, the other finds; what one erases, neither finds.
 */
describe('journal search across replicas', () => {
  let db: TestDatabase;
  const connections: Connection[] = [];
  const masterKey = randomBytes(32);
  type Replica = { handlers: JournalHandlers; search: JournalSearchService; erase: JournalEraseHandlers; keys: DataKeyService };
  let first: Replica;
  let second: Replica;

  // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
  const call = async <T>(replica: Replica, handler: keyof JournalHandlers, data: unknown): Promise<T> => {
    const reply = await (replica.handlers[handler] as unknown as (e: unknown) => Promise<RpcReply<T>>).call(replica.handlers, { data, meta: {} });
    if (!reply.ok) throw new Error(`${handler}: ${reply.error.status} ${reply.error.message}`);
    return reply.data;
  };
  const found = async (replica: Replica, query: string) =>
    (await call<JournalEntry[]>(replica, 'searchEntries', { query })).map((entry) => entry.title ?? entry.content);

  /** A replica's index as it is, read without a look of its own. */
  const indexOf = (replica: Replica) => (replica.search as unknown as { index: SearchIndex }).index;

  async function replica(): Promise<Replica> {
    const connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 3 });
    connections.push(connection);
    const database = drizzleFor(connection);
    const keys = new DataKeyService(database, fixedMasterKey(masterKey));
    const search = new JournalSearchService(new SearchFeedRepository(database), keys);
    search.onApplicationBootstrap();
    return {
      handlers: new JournalHandlers(new JournalService(new EntriesRepository(database), keys), search),
      search,
      erase: new JournalEraseHandlers(database, keys, search),
      keys,
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const setup = await openConnection({ kind: 'postgres', url: db.url, poolSize: 1 });
    await applyMigrations(setup, JOURNAL_MIGRATIONS);
    await setup.close();
    first = await replica();
    second = await replica();
  });

  afterAll(async () => {
    for (const r of [first, second]) await r?.search.onApplicationShutdown();
    for (const connection of connections) await connection.close();
    await db?.drop();
  });

  beforeEach(async () => {
    await db.query('delete from journal.entries');
    await db.query('delete from journal.entry_removals');
  });

  it('finds through one replica what was written through the other, and follows edits and deletions', async () => {
    const dawn = await call<JournalEntry>(first, 'create', { title: 'Operation Dawn', content: 'We met at the Café by the red door.' });
    await call(first, 'create', { title: 'Night watch', content: 'Nothing at the door tonight.' });
    expect(await found(second, 'cafe')).toEqual(['Operation Dawn']);
    expect(await found(second, 'door')).toEqual(['Night watch', 'Operation Dawn']);
    expect(await found(second, '"the red door"')).toEqual(['Operation Dawn']);

    await call(first, 'update', { id: dawn.id, title: 'Operation Dusk', content: 'Moved to the harbour.' });
    expect(await found(second, 'cafe')).toEqual([]);
    expect(await found(second, 'harbour')).toEqual(['Operation Dusk']);

    await call(second, 'remove', { id: dawn.id });
    expect(await found(first, 'harbour')).toEqual([]);
    expect(await found(second, 'harbour')).toEqual([]);
  });

  it('keeps an idle replica current within a second, with no search to wake it', async () => {
    expect(SEARCH_REFRESH_MS).toBeLessThanOrEqual(2_000);
    await found(second, 'anything');
    await call(first, 'create', { content: 'Lighthouse keeper' });
    const started = Date.now();
    // Read the index without a look of its own: only the replica's timer brings the entry in.
    while (indexOf(second).match(['lighthouse'], 0, 10).length === 0) {
      expect(Date.now() - started).toBeLessThan(SEARCH_REFRESH_MS + 1_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('finds an entry whose transaction began before a later one that committed first', async () => {
    await found(second, 'anything');
    // A slow writer: its transaction id is taken now, its row committed only after another entry's.
    const slow = new pg.Client({ connectionString: db.url });
    await slow.connect();
    try {
      await slow.query('begin');
      const id = randomUUID();
      const sealed = sealEntry(await first.keys.current(), id, { content: 'Slow courier arrived' });
      await slow.query('insert into journal.entries (id, title_ciphertext, content_ciphertext, created_at, updated_at) values ($1, $2, $3, now(), now())', [
        id,
        sealed.titleCiphertext,
        sealed.contentCiphertext,
      ]);
      await call(first, 'create', { content: 'Fast courier arrived' });
      expect(await found(second, 'courier')).toEqual(['Fast courier arrived']);
      await slow.query('commit');
    } finally {
      await slow.end();
    }
    expect((await found(second, 'courier')).sort()).toEqual(['Fast courier arrived', 'Slow courier arrived']);
  });

  it('answers in one statement when nothing changed since its last look, and looks first when something did', async () => {
    await call(first, 'create', { content: 'Quiet harbour' });
    expect(await found(second, 'harbour')).toEqual(['Quiet harbour']);
    // The feed's statements from here on, by method; the timer's looks paused meanwhile, so that only the searches' show.
    const inside = second.search as unknown as { feed: Record<string, (...args: unknown[]) => unknown>; timer: NodeJS.Timeout };
    clearInterval(inside.timer);
    await second.search.refresh();
    const feed = inside.feed;
    const statements: string[] = [];
    const originals = Object.fromEntries(['glance', 'read', 'rows', 'rowsIfUnchanged'].map((name) => [name, feed[name]]));
    for (const [name, original] of Object.entries(originals))
      feed[name] = (...args: unknown[]) => {
        statements.push(name);
        return original.apply(feed, args);
      };
    try {
      // The horizon is the oldest transaction running on the whole server at a look: while another one (of
      // another test file's database) ran then, it is not past the entry's own, and searches look again until a
      // look's horizon is. From then on nothing is written here, so a search is one statement.
      const deadline = Date.now() + 20_000;
      for (;;) {
        statements.length = 0;
        expect(await found(second, 'harbour')).toEqual(['Quiet harbour']);
        if (statements.length === 1 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(statements).toEqual(['rowsIfUnchanged']);
      expect(await found(second, 'absent')).toEqual([]);
      expect(await found(second, 'harbour')).toEqual(['Quiet harbour']);
      expect(statements).toEqual(['rowsIfUnchanged', 'rowsIfUnchanged', 'rowsIfUnchanged']);
      statements.length = 0;
      await call(first, 'create', { content: 'Busy harbour' });
      expect(await found(second, 'harbour')).toEqual(['Busy harbour', 'Quiet harbour']);
      // The index's answer was not current: the look (a glance, then the read), then the rows.
      expect(statements).toEqual(['rowsIfUnchanged', 'glance', 'read', 'rows']);
    } finally {
      Object.assign(feed, originals);
      second.search.onApplicationBootstrap();
    }
  });

  it('answers a page at a time, newest first', async () => {
    for (let n = 1; n <= 5; n++) await call(first, 'create', { content: `Report ${n}` });
    const all = await call<JournalEntry[]>(second, 'searchEntries', { query: 'report' });
    // Newest first; entries written in the same millisecond come in the list's order (by id), not by their number.
    const times = all.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.map((entry) => entry.content).sort()).toEqual(['Report 1', 'Report 2', 'Report 3', 'Report 4', 'Report 5']);
    const page = await call<JournalEntry[]>(second, 'searchEntries', { query: 'report', limit: 2, offset: 1 });
    expect(page).toEqual(all.slice(1, 3));
  });
  it('drops what went without a note (a discarded restore), on every replica', async () => {
    await call(first, 'create', { content: 'Restored, then discarded' });
    expect(await found(second, 'discarded')).toEqual(['Restored, then discarded']);
    await db.query('delete from journal.entries');
    // At once in the answers (the rows are gone); from the index itself at the timer's next look, which counts.
    expect(await found(first, 'discarded')).toEqual([]);
    expect(await found(second, 'discarded')).toEqual([]);
    const started = Date.now();
    while (indexOf(first).size + indexOf(second).size > 0) {
      expect(Date.now() - started).toBeLessThan(SEARCH_REFRESH_MS + 1_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  // Last: an erase ends the vault (nothing is written after it until a new vault starts).
  it('is empty on both replicas after an erase', async () => {
    await call(first, 'create', { content: 'Burn after reading' });
    expect(await found(second, 'burn')).toEqual(['Burn after reading']);
    await first.erase.erase();
    expect(await found(first, 'burn')).toEqual([]);
    expect(await found(second, 'burn')).toEqual([]);
    expect(await db.query('select id from journal.entry_removals')).toEqual([]);
  });
});
