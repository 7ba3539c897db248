import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AccessAttempt, RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, planOf, readsInListOrder, type TestDatabase } from '@vault/testing';
import { envelope, type EventEnvelope } from '@vault/transport';
import { AccessLogHandlers } from '../src/access-log/access-log.handlers.js';
import { AccessLogRepository } from '../src/access-log/access-log.repository.js';
import { AUDIT_MIGRATIONS } from '../src/database.js';

/**
 * audit-svc's access log on a fresh PostgreSQL database with audit-svc's own
 * migrations: the event consumer and the list handler as the transport calls
 * them (the list's contract parsing included), no broker and no gateway.
 */
describe('the access log on its own database', () => {
  let db: TestDatabase;
  let connection: Connection;
  let log: AccessLogRepository;
  let handlers: AccessLogHandlers;

  type Row = { ipAddress: string; userAgent?: string; action: string; success: boolean; createdAt: string };
  // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
  const list = (data: unknown) => (handlers.list as unknown as (e: unknown) => Promise<RpcReply<Row[]>>)({ data, meta: {} });
  const at = (iso: string, attempt: AccessAttempt): EventEnvelope => ({ ...envelope(attempt), at: iso });

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    await applyMigrations(connection, AUDIT_MIGRATIONS);
    log = new AccessLogRepository(drizzleFor(connection));
    handlers = new AccessLogHandlers(log);
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('stores each attempt once, however often its event is delivered, and lists the newest first', async () => {
    const failed: AccessAttempt = { ipAddress: '203.0.113.7', userAgent: 'guesser/1.0', action: 'failed_login', success: false };
    const success: AccessAttempt = { ipAddress: '203.0.113.7', action: 'login_success', success: true };
    const first = at('2026-11-23T10:00:00.000Z', failed);
    await handlers.record(failed, first);
    await handlers.record(failed, first);
    await handlers.record(success, at('2026-11-23T10:00:05.000Z', success));

    const reply = await list({});
    expect(reply).toEqual({
      ok: true,
      data: [
        { id: expect.any(String), ipAddress: '203.0.113.7', action: 'login_success', success: true, createdAt: '2026-11-23T10:00:05.000Z' },
        { id: first.id, ipAddress: '203.0.113.7', userAgent: 'guesser/1.0', action: 'failed_login', success: false, createdAt: '2026-11-23T10:00:00.000Z' },
      ],
    });
    expect(await db.query('select count(*)::int as rows from audit.access_log')).toEqual([{ rows: 2 }]);
  });

  it('pages with limit and offset, and refuses a bad limit with a 400 before reading', async () => {
    // As the gateway hands on a query string: the numbers as text.
    expect(await list({ limit: '1', offset: '1' })).toMatchObject({ ok: true, data: [{ action: 'failed_login' }] });
    expect(await list({ limit: 'abc' })).toEqual({ ok: false, error: { status: 400, message: 'limit: limit must be a whole number' } });
  });

  it('drops an event from before an erase that arrives after it, in any replica and after a restart', async () => {
    await log.eraseAll(new Date('2026-11-23T11:00:00.000Z'));
    // An erase with an older instant (a VaultDestroyed event delivered late) does not move it back.
    await log.eraseAll(new Date('2026-11-23T09:00:00.000Z'));
    expect(await db.query('select count(*)::int as rows from audit.access_log')).toEqual([{ rows: 0 }]);
    // Another replica, or audit-svc restarted: a handler of its own on a connection of its own.
    const other = await openConnection({ kind: 'postgres', url: db.url, poolSize: 1 });
    try {
      const replica = new AccessLogHandlers(new AccessLogRepository(drizzleFor(other)));
      const late: AccessAttempt = { ipAddress: '198.51.100.1', action: 'logout', success: true };
      await replica.record(late, at('2026-11-23T10:59:59.000Z', late));
      await handlers.record(late, at('2026-11-23T11:00:00.000Z', late));
      await replica.record(late, at('2026-11-23T11:00:01.000Z', late));
    } finally {
      await other.close();
    }
    const rows = await db.query<{ created_at: Date }>("select created_at from audit.access_log where ip_address = '198.51.100.1'");
    expect(rows.map((r) => r.created_at.toISOString())).toEqual(['2026-11-23T11:00:01.000Z']);
    expect(await db.query<{ erased_at: Date }>('select erased_at from audit.erasure')).toEqual([{ erased_at: new Date('2026-11-23T11:00:00.000Z') }]);
  });

  it('leaves nothing older than an erase that runs while attempts are being recorded', async () => {
    const racing = await openConnection({ kind: 'postgres', url: db.url, poolSize: 4 });
    try {
      const replica = new AccessLogHandlers(new AccessLogRepository(drizzleFor(racing)));
      const attempt: AccessAttempt = { ipAddress: '192.0.2.44', action: 'failed_login', success: false };
      // 200 attempts stamped just before the erase's instant, recorded on 4 connections while the erase runs on another.
      const erasedAt = new Date(Date.now() + 60_000);
      const before = (i: number) => at(new Date(erasedAt.getTime() - 1 - i).toISOString(), attempt);
      const recordings = Array.from({ length: 200 }, (_, i) => replica.record(attempt, before(i)));
      const erase = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await log.eraseAll(erasedAt);
      })();
      await Promise.all([...recordings, erase]);
    } finally {
      await racing.close();
    }
    expect(await db.query("select count(*)::int as rows from audit.access_log where ip_address = '192.0.2.44'")).toEqual([{ rows: 0 }]);
  });

  it("reads a page of the log from its index in the list's order, however long the log is", async () => {
    await db.query(
      `insert into audit.access_log (id, ip_address, user_agent, action, success, created_at)
       select gen_random_uuid(), '198.51.100.' || (g % 250), repeat('agent ', 20), 'login_success', true, now() - g * interval '1 minute' from generate_series(1, 5000) g`,
    );
    const page = log.newestFirst(20, 0) as unknown as { toSQL(): { sql: string; params: unknown[] } };
    const plan = await planOf(db, 'audit.access_log', page.toSQL());
    expect({ plan, inOrder: readsInListOrder(plan) }).toEqual({ plan, inOrder: true });
  });
});
