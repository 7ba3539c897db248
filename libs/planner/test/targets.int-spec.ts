import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcReply, Target } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { PLANNER_MIGRATIONS } from '../src/database.js';
import { TargetsHandlers } from '../src/targets/targets.handlers.js';
import { TargetsRepository } from '../src/targets/targets.repository.js';

/**
 * planner-svc's targets on a fresh PostgreSQL database with planner-svc's own
 * migrations: the handlers as the transport calls them (the contract's
 * parsing included), the rows read straight from the table.
 */
describe('targets on their own database', () => {
  let db: TestDatabase;
  let connection: Connection;
  let handlers: TargetsHandlers;

  // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
  const call = <T>(handler: unknown, data: unknown = {}) => (handler as (e: unknown) => Promise<RpcReply<T>>).call(handlers, { data, meta: {} });

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    await applyMigrations(connection, PLANNER_MIGRATIONS);
    handlers = new TargetsHandlers(new TargetsRepository(drizzleFor(connection)));
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('creates a target with its title trimmed and a blank description dropped', async () => {
    const created = await call<Target>(handlers.create, { title: ' Scout ', description: '   ' });
    expect(created).toEqual({ ok: true, data: { id: expect.any(String), title: 'Scout', completed: false, createdAt: expect.any(String), completedAt: null } });
    expect(await db.query('select title, description, completed from planner.targets')).toEqual([{ title: 'Scout', description: null, completed: false }]);
  });

  it('keeps the completion time on the server, and clears it on reactivation', async () => {
    const created = await call<Target>(handlers.create, { title: 'Extract' });
    if (!created.ok) throw new Error(created.error.message);
    const done = await call<Target>(handlers.update, { id: created.data.id, completed: true });
    expect(done.ok && Date.parse(done.data.completedAt ?? '')).not.toBeNaN();
    const [row] = await db.query<{ completed_at: Date | null }>('select completed_at from planner.targets where id = $1', [created.data.id]);
    expect(row.completed_at).toBeInstanceOf(Date);
    expect(await call<Target>(handlers.update, { id: created.data.id, completed: false })).toMatchObject({
      ok: true,
      data: { completed: false, completedAt: null },
    });
  });

  it('refuses bad input with a 400 and a missing target with a 404, changing nothing', async () => {
    const before = await db.query('select * from planner.targets order by id');
    expect(await call(handlers.create, { title: '   ' })).toEqual({ ok: false, error: { status: 400, message: 'title: must not be empty' } });
    expect(await call(handlers.update, { id: 'nope', completed: true })).toEqual({ ok: false, error: { status: 400, message: 'id: must be a valid id' } });
    const unknown = { id: '00000000-0000-4000-8000-000000000000' };
    expect(await call(handlers.update, { ...unknown, completed: true })).toEqual({ ok: false, error: { status: 404, message: 'Target not found' } });
    expect(await call(handlers.remove, unknown)).toEqual({ ok: false, error: { status: 404, message: 'Target not found' } });
    expect(await db.query('select * from planner.targets order by id')).toEqual(before);
  });

  it('lists in creation order and deletes', async () => {
    const listed = await call<Target[]>(handlers.list);
    expect(listed.ok && listed.data.map((t) => t.title)).toEqual(['Scout', 'Extract']);
    const first = listed.ok ? listed.data[0].id : '';
    expect(await call(handlers.remove, { id: first })).toEqual({ ok: true, data: { id: first } });
    expect(await db.query('select title from planner.targets')).toEqual([{ title: 'Extract' }]);
  });
});
