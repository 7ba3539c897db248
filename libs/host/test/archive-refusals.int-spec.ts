import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, numberedPng } from '@vault/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { exportArchive, fillVault, ownerData, restoreArchive, unzip } from './archive-support.js';
import { OWNER, embeddedConfig, startEmbeddedVault } from './stack.js';

const PASSPHRASE = 'a long passphrase for the archive';
const EMPTY = { targets: 0, journal: 0, photos: 0, activities: 0, studies: 0, balance: 1_000_000_000 };

/** A zip of these files, written as the vault writes one. */
function zipOf(files: Array<[string, Buffer]>, compress = true): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * Must-show 3: every bad archive is refused with a 4xx and a message that
 * says why, and the empty vault it was sent to stays empty. The archives are
 * real exports of another vault, damaged one way each.
 */
describe('restore refuses bad archives and changes nothing', () => {
  const sourceDir = mkdtempSync(join(tmpdir(), 'vault-archive-source-'));
  const emptyDir = mkdtempSync(join(tmpdir(), 'vault-archive-empty-'));
  let archive: Buffer;
  let sealed: Buffer;
  let files: Map<string, Buffer>;
  let empty: Awaited<ReturnType<typeof startEmbeddedVault>>;
  let owner: ApiClient;

  beforeAll(async () => {
    const source = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: sourceDir }));
    try {
      const client = await fillVault(source.url, { journalEntries: 5, photos: 2 });
      archive = (await exportArchive(client, { password: OWNER.password })).bytes;
      sealed = (await exportArchive(client, { password: OWNER.password, passphrase: PASSPHRASE })).bytes;
      files = await unzip(archive);
    } finally {
      await source.close();
    }
    empty = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: emptyDir }));
    owner = new ApiClient(empty.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await empty?.close();
    rmSync(sourceDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  });

  const refused = async (body: Buffer, status: number, message: RegExp, passphrase?: string) => {
    const answer = await restoreArchive(owner, body, passphrase);
    expect([answer.status, answer.text]).toEqual([status, expect.stringMatching(message)]);
    expect(await ownerData(owner)).toEqual(EMPTY);
  };

  it('refuses a truncated archive', async () => {
    await refused(archive.subarray(0, Math.floor(archive.length / 2)), 400, /^The archive is damaged or incomplete/);
  });

  it('refuses an archive with one byte flipped (its SHA-256 no longer matches)', async () => {
    const photo = [...files.entries()].find(([name]) => name.startsWith('photos/'))!;
    const at = archive.indexOf(photo[1]);
    expect(at).toBeGreaterThan(0);
    const flipped = Buffer.from(archive);
    flipped[at + Math.floor(photo[1].length / 2)] ^= 0x01;
    await refused(flipped, 400, new RegExp(`^${photo[0]} does not match its SHA-256 in manifest.json: the archive is damaged or was changed$`));
  });

  it('refuses an encrypted archive with a wrong passphrase, or none', async () => {
    await refused(sealed, 400, /^The passphrase does not open this archive$/, 'not the right passphrase at all');
    await refused(sealed, 400, /^The archive is encrypted: give its passphrase$/);
  });

  it('refuses a zip bomb before inflating it', async () => {
    const bomb = await zipOf([
      ...[...files.entries()].filter(([name]) => !name.startsWith('photos/')),
      [`photos/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}.png`, Buffer.alloc(200 * 1024 * 1024)],
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await refused(bomb, 413, /would inflate to 209715200 bytes, over the 10485760 a vault export can hold \(a zip bomb\?\)$/);
  });

  it('refuses a path that climbs out of the archive (..)', async () => {
    const sneaky = await zipOf([...files.entries(), ['AA/escape.md', Buffer.from('# escaped\n')]]);
    const climbing = Buffer.from(sneaky.toString('latin1').replaceAll('AA/escape.md', '../escape.md'), 'latin1');
    await refused(climbing, 400, /^The archive names a file outside itself \(invalid relative path: \.\.\/escape\.md\)/);
  });

  it('refuses an archive of another format version', async () => {
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    const next = await zipOf([
      ...[...files.entries()].filter(([name]) => name !== 'manifest.json'),
      ['manifest.json', Buffer.from(JSON.stringify({ ...manifest, formatVersion: 2 }))],
    ]);
    await refused(next, 422, /^The archive is of format version 2; this vault restores version 1 only$/);
  });

  it('refuses a foreign archive and a file that is no zip at all', async () => {
    await refused(
      await zipOf([['notes.txt', Buffer.from('hello')]]),
      400,
      /^The archive holds a file a Vault export never has \(notes\.txt\): it is not a Vault export$/,
    );
    await refused(numberedPng(7), 400, /^The archive is damaged or incomplete/);
  });

  it('refuses records that break the contracts even when the manifest was rewritten to match', async () => {
    const vault = JSON.parse(files.get('vault.json')!.toString());
    vault.targets[0].title = '';
    const json = Buffer.from(JSON.stringify(vault));
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    const { createHash } = await import('node:crypto');
    manifest.files['vault.json'] = { size: json.length, sha256: createHash('sha256').update(json).digest('hex') };
    const forged = await zipOf([
      ...[...files.entries()].filter(([name]) => name !== 'manifest.json' && name !== 'vault.json'),
      ['vault.json', json],
      ['manifest.json', Buffer.from(JSON.stringify(manifest))],
    ]);
    await refused(forged, 422, /^vault\.json does not hold valid records: targets\.0\.title: must not be empty/);
  });

  it('takes back every record already restored when a service refuses part-way (a photo that is no image)', async () => {
    const vault = JSON.parse(files.get('vault.json')!.toString());
    const { createHash } = await import('node:crypto');
    const fake = Buffer.from('not an image, whatever the archive says');
    const photoName = `photos/${vault.photos[1].id}.png`;
    vault.photos[1].size = fake.length;
    const json = Buffer.from(JSON.stringify(vault));
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    const entry = (bytes: Buffer) => ({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    manifest.files['vault.json'] = entry(json);
    manifest.files[photoName] = entry(fake);
    const kept = [...files.entries()].filter(([name]) => !['manifest.json', 'vault.json', photoName].includes(name));
    const forged = await zipOf([...kept, ['vault.json', json], [photoName, fake], ['manifest.json', Buffer.from(JSON.stringify(manifest))]]);
    await refused(forged, 415, new RegExp(`^${photoName.replace('.png', '')}: not a image/png image$`));
    // The access log holds only this vault's own records: the archive's were taken back too.
    const ids = new Set(vault.accessLog.map((record: { id: string }) => record.id));
    const log = (await owner.request('GET', '/api/logs?limit=5000')).json as Array<{ id: string }>;
    expect(log.filter((record) => ids.has(record.id))).toEqual([]);
  });

  // Last: it fills the vault.
  it('restores the encrypted archive with its passphrase', async () => {
    const answer = await restoreArchive(owner, sealed, PASSPHRASE);
    expect([answer.status, JSON.parse(answer.text).restored]).toEqual([200, expect.objectContaining({ journal: 5, photos: 2 })]);
    expect(await ownerData(owner)).toEqual({ targets: 2, journal: 5, photos: 2, activities: 1, studies: 1, balance: 1_000_000_000 - 1234.56 });
  });
});
