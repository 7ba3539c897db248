import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resetDestroyedVault } from '@vault/auth';
import { openConnection } from '@vault/persistence';
import { ApiClient } from '@vault/testing';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roundTrip } from './archive-round-trip.js';
import { exportArchive, restoreArchive, unzip } from './archive-support.js';
import { OWNER, embeddedConfig, startEmbeddedVault } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The operator's command, as `npm run vault -- ...` runs it, on one data folder. */
function cli(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'apps/vault/dist/cli.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, VAULT_MODE: 'embedded', VAULT_DATA_DIR: dataDir, VAULT_OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('export and restore, embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-archive-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;

  beforeAll(async () => {
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
  });

  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('round-trips a full vault: export, self-destruct, start a new vault, restore, export again', async () => {
    const { files } = await roundTrip(
      () => vault.url,
      async () => {
        const owner = new ApiClient(vault.url);
        await owner.login(OWNER.username, OWNER.password);
        expect((await owner.request('POST', '/api/settings/self-destruct')).status).toBe(200);
        await vault.close();
        const connection = await openConnection({ kind: 'embedded', dataDir });
        expect(await resetDestroyedVault(connection)).toBe('reset');
        await connection.close();
        vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
      },
    );
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest.counts).toMatchObject({ journal: 1000, photos: 20, journalFiles: 1000, photoFiles: 20 });
    const note = [...files.entries()].find(([name]) => /^journal\/\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}-jour-1-été\.md$/.test(name));
    expect(note?.[1].toString('utf8')).toMatch(/^---\ntitle: "Jour 1 — été ☀️"\ncreated: .+\nupdated: .+\nid: .+\n---\n\nEntry 1: Überprüfung/);
  }, 600_000);

  it('refuses an export without the owner password, and records the refusal', async () => {
    const owner = new ApiClient(vault.url);
    await owner.login(OWNER.username, OWNER.password);
    expect((await exportArchive(owner, { password: OWNER.password })).status).toBe(200);
    expect((await exportArchive(owner, {})).status).toBe(400);
    const wrong = await exportArchive(owner, { password: 'not the owner password' });
    expect([wrong.status, wrong.bytes.toString()]).toEqual([403, 'password: is not the owner password']);
    const visitor = new ApiClient(vault.url);
    expect((await exportArchive(visitor, { password: OWNER.password })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = (await owner.request('GET', '/api/logs?limit=20')).json as Array<{ action: string; success: boolean }>;
    expect(log).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'export', success: false }), expect.objectContaining({ action: 'export', success: true })]),
    );
  });

  it('encrypts with a passphrase (age) and restores only with it, into an empty vault only', async () => {
    const owner = new ApiClient(vault.url);
    await owner.login(OWNER.username, OWNER.password);
    const sealed = await exportArchive(owner, { password: OWNER.password, passphrase: 'correct horse battery staple' });
    expect(sealed.status).toBe(200);
    expect(sealed.bytes.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
    expect(sealed.bytes.includes(Buffer.from('vault.json'))).toBe(false);
    // This vault holds the restored data: a second restore is refused.
    const notEmpty = await restoreArchive(owner, sealed.bytes, 'correct horse battery staple');
    expect([notEmpty.status, notEmpty.text]).toEqual([
      409,
      expect.stringMatching(/^This vault is not empty \(it holds .*journal.*\): a restore goes into an empty vault only$/),
    ]);
    const plain = await unzip((await exportArchive(owner, { password: OWNER.password })).bytes);
    expect(plain.has('vault.json')).toBe(true);
  });

  it('exports and imports from the command line (npm run vault -- export|import FILE), encrypted with a passphrase file', async () => {
    await vault.close();
    const work = mkdtempSync(join(tmpdir(), 'vault-archive-cli-'));
    const otherDir = join(work, 'new-vault');
    try {
      writeFileSync(join(work, 'passphrase'), 'an operator passphrase file\n', { mode: 0o600 });
      const exported = cli(dataDir, 'export', join(work, 'backup.zip.age'), '--passphrase-file', join(work, 'passphrase'));
      expect([exported.status, exported.stdout]).toEqual([0, `Exported the vault to ${join(work, 'backup.zip.age')} (encrypted with age).\n`]);
      expect(readFileSync(join(work, 'backup.zip.age')).subarray(0, 21).toString()).toBe('age-encryption.org/v1');
      // The vault that was exported is not empty: it refuses its own archive.
      const refused = cli(dataDir, 'import', join(work, 'backup.zip.age'), '--passphrase-file', join(work, 'passphrase'));
      expect([refused.status, refused.stderr]).toEqual([
        1,
        expect.stringMatching(/^This vault is not empty \(it holds .*\): a restore goes into an empty vault only\n$/),
      ]);
      const imported = cli(otherDir, 'import', join(work, 'backup.zip.age'), '--passphrase-file', join(work, 'passphrase'));
      expect([imported.status, imported.stdout]).toEqual([0, expect.stringMatching(/^Restored \d+ targets, .*1000 journal, 20 photos, \d+ accessLog\.\n$/)]);
      expect(cli(otherDir, 'export', join(work, 'again.zip')).status).toBe(0);
      expect(cli(dataDir, 'export', join(work, 'first.zip')).status).toBe(0);
      const first = JSON.parse((await unzip(readFileSync(join(work, 'first.zip')))).get('vault.json')!.toString());
      const again = JSON.parse((await unzip(readFileSync(join(work, 'again.zip')))).get('vault.json')!.toString());
      expect({ ...again, exportedAt: undefined, accessLog: undefined }).toEqual({ ...first, exportedAt: undefined, accessLog: undefined });
      // The new vault's log: the archive's, and its own restore from the command line.
      const oldIds = new Set(first.accessLog.map((record: { id: string }) => record.id));
      const added = again.accessLog.filter((record: { id: string }) => !oldIds.has(record.id));
      expect(added.map((record: { action: string; ipAddress: string }) => [record.action, record.ipAddress])).toEqual([['import', 'local command line']]);
    } finally {
      rmSync(work, { recursive: true, force: true });
      vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
    }
  }, 300_000);
});
