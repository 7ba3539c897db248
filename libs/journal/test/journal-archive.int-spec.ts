import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JournalRecord, RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { JournalArchiveHandlers } from '../src/archive/journal-archive.handlers.js';
import { DataKeyService } from '../src/crypto/data-key.service.js';
import { fixedMasterKey } from '../src/crypto/master-key-source.js';
import { JOURNAL_MIGRATIONS } from '../src/database.js';

type Page = { records: JournalRecord[]; next?: string };

/**
 * journal-svc's part of an export and a restore on two fresh databases, each
 * with its own master key: what one vault exports in plain text, another
 * seals under its own key, with the same ids and times, a page at a time.
 */
describe('journal export and restore across two vaults', () => {
  const vaults: Array<{ db: TestDatabase; connection: Connection; handlers: JournalArchiveHandlers }> = [];
  const call = <T>(handlers: JournalArchiveHandlers, handler: unknown, data: unknown) =>
    (handler as (e: unknown) => Promise<RpcReply<T>>).call(handlers, { data, meta: {} });
  const data = <T>(reply: RpcReply<T>): T => {
    if (!reply.ok) throw new Error(`${reply.error.status}: ${reply.error.message}`);
    return reply.data;
  };
  const exportAll = async (handlers: JournalArchiveHandlers) => {
    const records: JournalRecord[] = [];
    let pages = 0;
    let after: string | undefined;
    do {
      const page = data(await call<Page>(handlers, handlers.export, after ? { after } : {}));
      records.push(...page.records);
      after = page.next;
      pages++;
    } while (after);
    return { records, pages };
  };

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const db = await createTestDatabase();
      const connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
      await applyMigrations(connection, JOURNAL_MIGRATIONS);
      const database = drizzleFor(connection);
      vaults.push({ db, connection, handlers: new JournalArchiveHandlers(database, new DataKeyService(database, fixedMasterKey(randomBytes(32)))) });
    }
  });

  afterAll(async () => {
    for (const { connection, db } of vaults) {
      await connection.close();
      await db.drop();
    }
  });

  it('pages large entries under the message budget and restores them sealed under the new key, ids and times kept', async () => {
    const [source, target] = vaults;
    // Ten entries of 90,000 characters: about 3 to a 256 KiB page.
    const written: JournalRecord[] = Array.from({ length: 10 }, (_, i) => ({
      id: randomUUID(),
      title: i % 2 ? null : `Été ${i} 🗝️`,
      content: `${'Überprüfung\n'.repeat(7500)}${i}`,
      createdAt: new Date(Date.UTC(2025, 0, i + 1)).toISOString(),
      updatedAt: new Date(Date.UTC(2025, 1, i + 1)).toISOString(),
    }));
    expect(data(await call(source.handlers, source.handlers.import, { records: written }))).toEqual({ imported: 10 });
    const exported = await exportAll(source.handlers);
    expect(exported.pages).toBeGreaterThan(3);
    const byId = (a: JournalRecord, b: JournalRecord) => a.id.localeCompare(b.id);
    expect(exported.records).toEqual([...written].sort(byId));

    expect(data(await call(target.handlers, target.handlers.readiness, {}))).toEqual({ service: 'journal', empty: true, holds: [] });
    expect(data(await call(target.handlers, target.handlers.import, { records: exported.records }))).toEqual({ imported: 10 });
    expect((await exportAll(target.handlers)).records).toEqual(exported.records);
    expect(data(await call(target.handlers, target.handlers.readiness, {}))).toEqual({ service: 'journal', empty: false, holds: ['journal'] });
    // Sealed under the target's own key: its ciphertext differs from the source's, and holds no plain text.
    const [sourceRow] = await source.db.query<{ content_ciphertext: Buffer }>('select content_ciphertext from journal.entries order by id limit 1');
    const [targetRow] = await target.db.query<{ content_ciphertext: Buffer }>('select content_ciphertext from journal.entries order by id limit 1');
    expect(targetRow.content_ciphertext.equals(sourceRow.content_ciphertext)).toBe(false);
    expect(targetRow.content_ciphertext.includes(Buffer.from('Überprüfung'))).toBe(false);
  });

  it('refuses a page whose ids collide with stored entries (422), and discard empties the journal', async () => {
    const [, target] = vaults;
    const stored = (await exportAll(target.handlers)).records;
    expect(await call(target.handlers, target.handlers.import, { records: stored.slice(0, 1) })).toMatchObject({
      ok: false,
      error: { status: 422, message: expect.stringMatching(/^journal: Key \(id\)=\(.+\) already exists\.$/) },
    });
    expect(await call(target.handlers, target.handlers.import, { records: [{ ...stored[0], id: 'not-a-uuid' }] })).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    expect(data(await call(target.handlers, target.handlers.discard, {}))).toEqual({ service: 'journal', discarded: true });
    expect((await exportAll(target.handlers)).records).toEqual([]);
  });
});
