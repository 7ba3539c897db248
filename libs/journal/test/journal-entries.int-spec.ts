import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JournalEntry, RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, planOf, readsInListOrder, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { DataKeyService } from '../src/crypto/data-key.service.js';
import { fixedMasterKey } from '../src/crypto/master-key-source.js';
import { JOURNAL_MIGRATIONS } from '../src/database.js';
import { EntriesRepository, pageOfEntries } from '../src/entries/entries.repository.js';
import { JournalHandlers } from '../src/entries/journal.handlers.js';
import { JournalService } from '../src/entries/journal.service.js';
import { JournalSearchService } from '../src/search/journal-search.service.js';
import { SearchFeedRepository } from '../src/search/search-feed.repository.js';

/**
 * journal-svc's entries on a fresh PostgreSQL database with journal-svc's own
 * migrations: the handlers as the transport calls them, the data key wrapped
 * by a master key, nothing between them and the table.
 */
describe('journal entries on their own database', () => {
  let db: TestDatabase;
  let connection: Connection;
  let handlers: JournalHandlers;
  const masterKey = randomBytes(32);

  // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
  const call = <T>(handler: unknown, data: unknown) => (handler as (e: unknown) => Promise<RpcReply<T>>).call(handlers, { data, meta: {} });
  const handlersWith = (key: Buffer) => {
    const database = drizzleFor(connection);
    const keys = new DataKeyService(database, fixedMasterKey(key));
    return new JournalHandlers(new JournalService(new EntriesRepository(database), keys), new JournalSearchService(new SearchFeedRepository(database), keys));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    await applyMigrations(connection, JOURNAL_MIGRATIONS);
    handlers = handlersWith(masterKey);
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('stores an entry as ciphertext only, and answers it as typed', async () => {
    const created = await call<JournalEntry>(handlers.create, { title: ' Operation Dawn ', content: 'line one\nline two' });
    expect(created).toMatchObject({ ok: true, data: { title: 'Operation Dawn', content: 'line one\nline two' } });
    const [row] = await db.query<{ title_ciphertext: Buffer | null; content_ciphertext: Buffer }>(
      'select title_ciphertext, content_ciphertext from journal.entries',
    );
    // Title and content sealed together in one value (entry-cipher.ts); the stored bytes hold neither text.
    expect(row.title_ciphertext).toBeNull();
    expect(row.content_ciphertext.length).toBeGreaterThan('Operation Dawnline one\nline two'.length);
    for (const secret of ['Operation Dawn', 'line one']) expect(row.content_ciphertext.includes(Buffer.from(secret))).toBe(false);
    expect(await call<JournalEntry[]>(handlers.list, {})).toEqual({ ok: true, data: [created.ok && created.data] });
  });

  it('refuses an empty entry with a 400 and writes nothing', async () => {
    const before = await db.query('select count(*)::int as n from journal.entries');
    expect(await call(handlers.create, { title: 'No content', content: '' })).toMatchObject({ ok: false, error: { status: 400 } });
    expect(await db.query('select count(*)::int as n from journal.entries')).toEqual(before);
  });

  it('answers 404 for an entry that is not there', async () => {
    const missing = await call(handlers.update, { id: '00000000-0000-4000-8000-000000000000', content: 'edited' });
    expect(missing).toEqual({ ok: false, error: { status: 404, message: 'Journal entry not found' } });
  });

  it('cannot be read under another master key', async () => {
    const stranger = handlersWith(randomBytes(32));
    const reply = await (stranger.list as unknown as (e: unknown) => Promise<RpcReply>).call(stranger, { data: {}, meta: {} });
    expect(reply).toMatchObject({ ok: false, error: { status: 500 } });
  });

  it("looks back on this day in the owner's time zone: earlier years only, leap days on 28 February, newest first", async () => {
    await db.query('delete from journal.entries');
    const written = async (at: string, title: string, content: string) => {
      const reply = await call<JournalEntry>(handlers.create, { title, content });
      if (!reply.ok) throw new Error('not created');
      await db.query('update journal.entries set created_at = $1, updated_at = $1 where id = $2', [at, reply.data.id]);
    };
    await written('2025-11-27T23:30:00Z', 'Late in London', '\n  First line here  \nsecond line');
    await written('2024-11-27T10:00:00Z', 'Two years back', 'x'.repeat(300));
    await written('2026-11-27T08:00:00Z', 'Today', 'not a look back');
    await written('2024-02-29T12:00:00Z', 'Leap day', 'once in four years');
    const lookBack = async (date: string, timeZone: string) => {
      const reply = await call<Array<{ title?: string; year: number; firstLine: string }>>(handlers.onThisDay, { date, timeZone });
      if (!reply.ok) throw new Error(`${reply.error.status} ${reply.error.message}`);
      return reply.data.map((entry) => `${entry.year} ${entry.title}: ${entry.firstLine.slice(0, 20)}`);
    };
    expect(await lookBack('2026-11-27', 'Europe/London')).toEqual(['2025 Late in London: First line here', `2024 Two years back: ${'x'.repeat(20)}`]);
    // In Paris the first one was written past midnight, on the 28th.
    expect(await lookBack('2026-11-27', 'Europe/Paris')).toEqual([`2024 Two years back: ${'x'.repeat(20)}`]);
    expect(await lookBack('2026-11-28', 'Europe/Paris')).toEqual(['2025 Late in London: First line here']);
    expect(await lookBack('2027-02-28', 'UTC')).toEqual(['2024 Leap day: once in four years']);
    expect(await lookBack('2028-02-28', 'UTC')).toEqual([]);
    const long = await call<Array<{ firstLine: string }>>(handlers.onThisDay, { date: '2026-11-27', timeZone: 'UTC' });
    expect(long.ok && [...long.data[1].firstLine].length).toBe(160);
    expect(await call(handlers.onThisDay, { date: '2026-11-27', timeZone: 'Mars/Olympus_Mons' })).toMatchObject({ ok: false, error: { status: 400 } });
    expect(await call(handlers.onThisDay, { date: '2026-02-30', timeZone: 'UTC' })).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("reads a page of the list from its index in the list's order, however many entries there are", async () => {
    // 5,000 entries of about 1.5 KB: the planner reads a table this size whole when the index's order does not match.
    await db.query(
      `insert into journal.entries (id, title_ciphertext, content_ciphertext, created_at, updated_at)
       select gen_random_uuid(), '\\x00'::bytea, decode(repeat(md5(g::text), 48), 'hex'), now() - g * interval '1 minute', now() from generate_series(1, 5000) g`,
    );
    // The statement the repository prepares, planned for a page of 20 from the start.
    const plan = await planOf(db, 'journal.entries', { sql: pageOfEntries(drizzleFor(connection)).toSQL().sql, params: [20, 0] });
    expect({ plan, inOrder: readsInListOrder(plan) }).toEqual({ plan, inOrder: true });
  });
});
