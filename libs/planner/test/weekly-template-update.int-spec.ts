import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcReply, WeeklyTemplate } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { ScheduleHandlers } from '../src/schedule/schedule.handlers.js';
import { ScheduleRepository } from '../src/schedule/schedule.repository.js';
import { WeeklyTemplatesRepository } from '../src/schedule/weekly-templates.repository.js';
import { PLANNER_MIGRATIONS } from '../src/database.js';

/**
 * Editing a weekly template (PATCH /api/weekly-templates/{id} reaches this
 * handler): the whole template is replaced, through the contract's parsing as
 * the transport delivers it, on PostgreSQL; bad input and unknown ids are
 * refused and change nothing.
 */
describe('updating a weekly template', () => {
  let db: TestDatabase;
  let connection: Connection;
  let handlers: ScheduleHandlers;

  type Handler = (envelope: unknown) => Promise<RpcReply<unknown>>;
  const call = <T>(name: 'createTemplate' | 'updateTemplate' | 'listTemplates', data: unknown) =>
    (handlers[name] as unknown as Handler)({ data, meta: {} }) as Promise<RpcReply<T>>;
  const list = async () => {
    const reply = await call<WeeklyTemplate[]>('listTemplates', {});
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.data;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 4 });
    await applyMigrations(connection, PLANNER_MIGRATIONS);
    const orm = drizzleFor(connection);
    handlers = new ScheduleHandlers(new WeeklyTemplatesRepository(orm), new ScheduleRepository(orm));
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('replaces title, time, description, day and repetition, keeping the id', async () => {
    const created = await call<WeeklyTemplate>('createTemplate', { title: 'Briefing', time: '09:00', dayOfWeek: 1, description: 'Room 3' });
    if (!created.ok) throw new Error(created.error.message);
    expect(created.data.isRepeating).toBe(true);

    const updated = await call<WeeklyTemplate>('updateTemplate', {
      id: created.data.id,
      title: ' Debriefing ',
      time: '17:30',
      dayOfWeek: 5,
      description: '',
      isRepeating: false,
    });
    expect(updated).toEqual({
      ok: true,
      data: { id: created.data.id, title: 'Debriefing', time: '17:30', dayOfWeek: 5, isRepeating: false },
    });
    expect(await list()).toEqual([updated.ok ? updated.data : undefined]);
  });

  it('refuses bad input with a 400 naming the field, and an unknown id with a 404, changing nothing', async () => {
    const before = await list();
    const [template] = before;
    const bad: Array<[unknown, string]> = [
      [{ id: template.id, title: '  ', time: '10:00', dayOfWeek: 1, isRepeating: true }, 'title: must not be empty'],
      [{ id: template.id, title: 'Ok', time: '25:00', dayOfWeek: 1, isRepeating: true }, 'time'],
      [{ id: template.id, title: 'Ok', time: '10:00', dayOfWeek: 7, isRepeating: true }, 'dayOfWeek'],
      [{ id: template.id, title: 'Ok', time: '10:00', dayOfWeek: 1 }, 'isRepeating: is required'],
      [{ id: 'not-an-id', title: 'Ok', time: '10:00', dayOfWeek: 1, isRepeating: true }, 'id: must be a valid id'],
    ];
    for (const [data, message] of bad) {
      const reply = await call('updateTemplate', data);
      expect(reply.ok).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.status).toBe(400);
      expect(reply.error.message).toContain(message);
    }
    const missing = await call('updateTemplate', {
      id: '00000000-0000-4000-8000-000000000000',
      title: 'Ghost',
      time: '10:00',
      dayOfWeek: 1,
      isRepeating: true,
    });
    expect(missing).toEqual({ ok: false, error: expect.objectContaining({ status: 404, message: 'Template not found' }) });
    expect(await list()).toEqual(before);
  });
});
