import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataKeyService } from '../src/crypto/data-key.service.js';
import { fixedMasterKey } from '../src/crypto/master-key-source.js';
import { JOURNAL_MIGRATIONS } from '../src/database.js';
import { rewrapDataKey } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Rotating the master key (docs/deploy.md): the data key is re-wrapped, the entries stay as they are. */
describe('master key rotation', () => {
  let db: TestDatabase;
  let connection: Connection;
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const dataKeyWith = async (masterKey: Buffer) => new DataKeyService(drizzleFor(connection), fixedMasterKey(masterKey)).current();

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 2 });
    await applyMigrations(connection, JOURNAL_MIGRATIONS);
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('has nothing to do before the journal has a data key', async () => {
    expect(await rewrapDataKey(connection, keyA, keyB)).toBe('no-data-key');
  });

  it('re-wraps the same data key under the new master key, once', async () => {
    const dataKey = await dataKeyWith(keyA);
    expect(await rewrapDataKey(connection, keyA, keyB)).toBe('rewrapped');
    expect((await dataKeyWith(keyB)).equals(dataKey)).toBe(true);
    await expect(dataKeyWith(keyA)).rejects.toThrow('The master key does not open the journal data key');
    // A retried job finds the work done.
    expect(await rewrapDataKey(connection, keyA, keyB)).toBe('already-rewrapped');
  });

  it('changes nothing when neither key opens the data key', async () => {
    const before = await db.query('select wrapped_key from journal.data_keys');
    await expect(rewrapDataKey(connection, randomBytes(32), randomBytes(32))).rejects.toThrow('Neither VAULT_MASTER_KEY nor VAULT_NEW_MASTER_KEY');
    expect(await db.query('select wrapped_key from journal.data_keys')).toEqual(before);
  });

  it('is what `journal-svc rotate-master-key` runs', async () => {
    const dataKey = await dataKeyWith(keyB);
    const env = { PATH: process.env.PATH, VAULT_MODE: 'distributed', DATABASE_URL: db.url, LOG_LEVEL: 'warn', VAULT_MASTER_KEY: keyB.toString('base64') };
    const main = join(root, 'apps/journal-svc/dist/main.js');
    const missing = spawnSync(process.execPath, [main, 'rotate-master-key'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('VAULT_NEW_MASTER_KEY: required by rotate-master-key');

    const rotated = spawnSync(process.execPath, [main, 'rotate-master-key'], {
      env: { ...env, VAULT_NEW_MASTER_KEY: keyA.toString('base64') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(rotated.stderr).toBe('');
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toContain('now wrapped by VAULT_NEW_MASTER_KEY');
    expect((await dataKeyWith(keyA)).equals(dataKey)).toBe(true);
  });
});
