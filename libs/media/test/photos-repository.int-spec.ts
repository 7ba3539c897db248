import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, planOf, readsInListOrder, type TestDatabase } from '@vault/testing';
import { randomUUID } from 'node:crypto';
import { MEDIA_MIGRATIONS } from '../src/database.js';
import { PhotosRepository } from '../src/photos/photos.repository.js';

/**
 * media-svc's photo rows on a fresh PostgreSQL database with media-svc's own
 * migrations: the repository alone, without an object store.
 */
describe('the photos table on its own database', () => {
  let db: TestDatabase;
  let connection: Connection;
  let photos: PhotosRepository;
  const ids = Array.from({ length: 3 }, () => randomUUID());

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    await applyMigrations(connection, MEDIA_MIGRATIONS);
    photos = new PhotosRepository(drizzleFor(connection));
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('lists the newest first, in pages that never overlap, even when photos share a time', async () => {
    for (const id of ids) await photos.insert({ id, objectKey: `photos/${id}`, contentType: 'image/png', size: 68 });
    // Same creation time for all: the id decides, so a page boundary is stable.
    await db.query("update media.photos set created_at = '2026-11-23T10:00:00Z'");
    const all = (await photos.list({})).map((row) => row.id);
    expect(all).toEqual([...ids].sort().reverse());
    const pages = [...(await photos.list({ limit: 2 })), ...(await photos.list({ limit: 2, offset: 2 }))].map((row) => row.id);
    expect(pages).toEqual(all);
  });

  it('keeps one row per object key', async () => {
    const taken = `photos/${ids[0]}`;
    await expect(photos.insert({ id: randomUUID(), objectKey: taken, contentType: 'image/png', size: 1 })).rejects.toThrow();
    expect(await db.query('select count(*)::int as n from media.photos where object_key = $1', [taken])).toEqual([{ n: 1 }]);
  });

  it('finds, removes one, and removes all, telling what it did', async () => {
    expect(await photos.find(ids[1])).toMatchObject({ id: ids[1], contentType: 'image/png', size: 68 });
    expect(await photos.remove(ids[1])).toBe(true);
    expect(await photos.remove(ids[1])).toBe(false);
    expect(await photos.find(ids[1])).toBeUndefined();
    expect(await photos.removeAll()).toBe(2);
    expect(await db.query('select * from media.photos')).toEqual([]);
  });

  it("reads a page of the photos from its index in the list's order, however many there are", async () => {
    await db.query(
      `insert into media.photos (id, object_key, content_type, size, created_at)
       select gen_random_uuid(), 'photos/plan-' || g, 'image/jpeg', 1000000, now() - g * interval '1 minute' from generate_series(1, 5000) g`,
    );
    const page = photos.list({ limit: 20, offset: 0 }) as unknown as { toSQL(): { sql: string; params: unknown[] } };
    const plan = await planOf(db, 'media.photos', page.toSQL());
    expect({ plan, inOrder: readsInListOrder(plan) }).toEqual({ plan, inOrder: true });
  });
});
