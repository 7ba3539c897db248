import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JournalEntry, RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { randomBytes } from 'node:crypto';
import { DataKeyService } from '../src/crypto/data-key.service.js';
import { fixedMasterKey } from '../src/crypto/master-key-source.js';
import { JOURNAL_MIGRATIONS } from '../src/database.js';
import { EntriesRepository } from '../src/entries/entries.repository.js';
import { JournalHandlers } from '../src/entries/journal.handlers.js';
import { JournalService } from '../src/entries/journal.service.js';

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
    return new JournalHandlers(new JournalService(new EntriesRepository(database), new DataKeyService(database, fixedMasterKey(key))));
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
    const [row] = await db.query<{ title_ciphertext: Buffer; content_ciphertext: Buffer }>('select title_ciphertext, content_ciphertext from journal.entries');
    // The stored bytes hold neither text, in any column that could.
    expect(row.content_ciphertext.length).toBeGreaterThan('line one\nline two'.length);
    for (const stored of [row.title_ciphertext, row.content_ciphertext]) {
      for (const secret of ['Operation Dawn', 'line one']) expect(stored.includes(Buffer.from(secret))).toBe(false);
    }
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
});
