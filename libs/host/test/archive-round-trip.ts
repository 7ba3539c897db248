import { expect } from '@jest/globals';
import { ApiClient } from '@vault/testing';
import { exportArchive, fillVault, ownerData, restoreArchive, unzip } from './archive-support.js';
import { OWNER } from './stack.js';

export const ROUND_TRIP = { journalEntries: 1000, photos: 20 };

/**
 * Must-show 1, in whichever mode `vault` runs: fill through the API, export,
 * erase (`erase` ends this vault and opens a new, empty one), restore, export
 * again. The two vault.json are equal but for the export time and what the
 * new vault itself logged after the restore (its own sign-in, the restore),
 * and every photo's bytes are identical.
 */
export async function roundTrip(url: () => string, erase: () => Promise<void>) {
  const owner = await fillVault(url(), ROUND_TRIP);
  const first = await exportArchive(owner, { password: OWNER.password });
  expect([first.status, first.type]).toEqual([200, 'application/zip']);
  const before = await unzip(first.bytes);

  await erase();
  const fresh = new ApiClient(url());
  expect((await fresh.login(OWNER.username, OWNER.password)).status).toBe(200);
  expect(await ownerData(fresh)).toEqual({ targets: 0, journal: 0, photos: 0, activities: 0, studies: 0, balance: 1_000_000_000 });
  const restoredAt = new Date().toISOString();
  const restored = await restoreArchive(fresh, first.bytes);
  expect([restored.status, restored.text]).toEqual([200, expect.stringContaining('"journal":1000')]);

  const second = await exportArchive(fresh, { password: OWNER.password });
  expect(second.status).toBe(200);
  const after = await unzip(second.bytes);

  const vaultBefore = JSON.parse(before.get('vault.json')!.toString('utf8'));
  const vaultAfter = JSON.parse(after.get('vault.json')!.toString('utf8'));
  // The new vault's own log after the restore (its sign-in, the restore itself) is all that was added.
  const oldIds = new Set(vaultBefore.accessLog.map((record: { id: string }) => record.id));
  const added = vaultAfter.accessLog.filter((record: { id: string }) => !oldIds.has(record.id));
  for (const record of added) expect(record.createdAt >= restoredAt.slice(0, 19) || record.action === 'login_success').toBe(true);
  expect(vaultAfter.accessLog.filter((record: { id: string }) => oldIds.has(record.id))).toEqual(vaultBefore.accessLog);
  expect({ ...vaultAfter, exportedAt: undefined, accessLog: undefined }).toEqual({ ...vaultBefore, exportedAt: undefined, accessLog: undefined });
  expect(vaultBefore.journal).toHaveLength(ROUND_TRIP.journalEntries);
  expect(vaultBefore.photos).toHaveLength(ROUND_TRIP.photos);
  for (const kind of ['targets', 'weeklyTemplates', 'scheduleItems', 'missions', 'studies', 'accessLog'])
    expect([kind, vaultBefore[kind].length > 0]).toEqual([kind, true]);

  const photoNames = [...before.keys()].filter((name) => name.startsWith('photos/'));
  expect(photoNames).toHaveLength(ROUND_TRIP.photos);
  for (const name of photoNames) expect([name, after.get(name)?.equals(before.get(name)!)]).toEqual([name, true]);
  const notes = (files: Map<string, Buffer>) => [...files.keys()].filter((name) => name.startsWith('journal/')).sort();
  expect(notes(after)).toEqual(notes(before));
  expect(notes(before)).toHaveLength(ROUND_TRIP.journalEntries);

  // The journal reads back through the API, sealed under the new vault's key.
  const newest = (await fresh.request('GET', '/api/journal?limit=1')).json[0];
  expect(newest.content).toBe(vaultBefore.journal.find((entry: { id: string }) => entry.id === newest.id).content);
  return { archive: first.bytes, files: before, client: fresh };
}
