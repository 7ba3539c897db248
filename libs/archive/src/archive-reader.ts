import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, ARCHIVE_RECORD_KINDS, PHOTO_MAX_BYTES, VaultArchive, describeIssues } from '@vault/contracts';
import { createHash } from 'node:crypto';
import type { Entry, ZipFile } from 'yauzl';
import { ArchiveRefusal } from './archive-refusal.js';
import type { EntryBytes } from './entry-bytes.js';
import { type OpenedZip, openZip, readWhole, readZipDirectory } from './zip-file.js';
import { ARCHIVE_NAME, MANIFEST_JSON, VAULT_JSON, photoPath } from './archive-layout.js';
import { Manifest } from './manifest.js';

/**
 * The most any file of an archive may inflate to. Above these, the archive
 * is refused from its directory alone, before anything is inflated (a zip
 * bomb); an entry that inflates past what its header declares is cut off
 * and refused by yauzl's size check.
 */
export const INFLATE_LIMITS = { vaultJson: 1024 * 1024 * 1024, manifest: 64 * 1024 * 1024, markdown: 1024 * 1024, photo: PHOTO_MAX_BYTES };
export const MAX_ENTRIES = 2_000_000;

/** An archive whose every byte matched its manifest: safe to restore from. */
export interface VerifiedArchive {
  vault: VaultArchive;
  manifest: Manifest;
  /** A photo's bytes, read again from the checked file. */
  photo(photo: { id: string; contentType: VaultArchive['photos'][number]['contentType'] }): EntryBytes;
  close(): void;
}

/**
 * Opens a zip file and checks all of it before anything is restored: only
 * this format's names (no `..`, no absolute path), sizes within the limits,
 * a manifest of this format and version, every file present with the size
 * and SHA-256 the manifest gives, and a vault.json that parses against the
 * record contracts and agrees with the files. Any failure is an
 * ArchiveRefusal naming the first problem.
 */
export async function openVerifiedArchive(path: string): Promise<VerifiedArchive> {
  const opened = await openZip(path);
  const { zip } = opened;
  try {
    const entries = await readDirectory(zip);
    const manifest = await readManifest(zip, entries);
    for (const [name, entry] of entries) {
      if (name === MANIFEST_JSON) continue;
      const expected = manifest.files[name];
      if (!expected) throw new ArchiveRefusal(400, `${name} is not in manifest.json: the archive was changed after it was made`);
      const actual = await digest(opened, entry).catch((error: unknown) => {
        // Bytes that do not even match the zip's own sizes and checksum do not match the manifest either.
        if (error instanceof ArchiveRefusal && error.getStatus() === 400) return undefined;
        throw error;
      });
      if (actual?.size !== expected.size || actual.sha256 !== expected.sha256) {
        throw new ArchiveRefusal(400, `${name} does not match its SHA-256 in manifest.json: the archive is damaged or was changed`);
      }
    }
    for (const name of Object.keys(manifest.files)) {
      if (!entries.has(name)) throw new ArchiveRefusal(400, `${name} is listed in manifest.json but missing from the archive`);
    }
    const vault = await readVault(zip, entries);
    checkAgreement(vault, manifest, entries);
    return {
      vault,
      manifest,
      photo: (photo) => opened.bytes(entries.get(photoPath(photo))!),
      close: opened.close,
    };
  } catch (error) {
    opened.close();
    throw error;
  }
}

function readDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > MAX_ENTRIES)
    return Promise.reject(new ArchiveRefusal(413, `The archive holds ${zip.entryCount} files, more than the ${MAX_ENTRIES} a vault export can`));
  return readZipDirectory(zip, (entry, kept) => entryProblem(entry, kept) ?? true);
}

function entryProblem(entry: Entry, seen: Map<string, Entry>): ArchiveRefusal | undefined {
  const name = entry.fileName;
  if (!ARCHIVE_NAME.test(name))
    return new ArchiveRefusal(400, `The archive holds a file a Vault export never has (${name.slice(0, 200)}): it is not a Vault export`);
  if (seen.has(name)) return new ArchiveRefusal(400, `The archive holds ${name} twice`);
  if (entry.isEncrypted()) return new ArchiveRefusal(400, `${name} is encrypted inside the zip: a Vault export is encrypted whole (age), not per file`);
  const limit =
    name === VAULT_JSON
      ? INFLATE_LIMITS.vaultJson
      : name === MANIFEST_JSON
        ? INFLATE_LIMITS.manifest
        : name.endsWith('.md')
          ? INFLATE_LIMITS.markdown
          : INFLATE_LIMITS.photo;
  if (entry.uncompressedSize > limit) {
    return new ArchiveRefusal(413, `${name} would inflate to ${entry.uncompressedSize} bytes, over the ${limit} a vault export can hold (a zip bomb?)`);
  }
  return undefined;
}

async function digest(opened: OpenedZip, entry: Entry): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  await opened.bytes(entry).copyTo(async (chunk) => void hash.update(chunk));
  return { size: entry.uncompressedSize, sha256: hash.digest('hex') };
}

async function readManifest(zip: ZipFile, entries: Map<string, Entry>): Promise<Manifest> {
  const entry = entries.get(MANIFEST_JSON);
  if (!entry) throw new ArchiveRefusal(400, 'The archive has no manifest.json: it is not a Vault export, or it is incomplete');
  const parsed = Manifest.safeParse(parseJson(await readWhole(zip, entry), MANIFEST_JSON));
  if (!parsed.success) {
    const format = (parseJson(await readWhole(zip, entry), MANIFEST_JSON) as { format?: unknown } | null)?.format;
    if (format !== ARCHIVE_FORMAT) throw new ArchiveRefusal(400, 'manifest.json is not a Vault export manifest: a foreign archive');
    throw new ArchiveRefusal(400, `manifest.json is damaged: ${describeIssues(parsed.error)}`);
  }
  if (parsed.data.formatVersion !== ARCHIVE_FORMAT_VERSION) {
    throw new ArchiveRefusal(422, `The archive is of format version ${parsed.data.formatVersion}; this vault restores version ${ARCHIVE_FORMAT_VERSION} only`);
  }
  return parsed.data;
}

async function readVault(zip: ZipFile, entries: Map<string, Entry>): Promise<VaultArchive> {
  const entry = entries.get(VAULT_JSON);
  if (!entry) throw new ArchiveRefusal(400, 'The archive has no vault.json');
  const parsed = VaultArchive.safeParse(parseJson(await readWhole(zip, entry), VAULT_JSON));
  if (!parsed.success) throw new ArchiveRefusal(422, `vault.json does not hold valid records: ${describeIssues(parsed.error).slice(0, 500)}`);
  return parsed.data;
}

function parseJson(bytes: Buffer, name: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ArchiveRefusal(400, `${name} is not valid JSON`);
  }
}

/** vault.json, the manifest and the files must tell the same story. */
function checkAgreement(vault: VaultArchive, manifest: Manifest, entries: Map<string, Entry>) {
  for (const kind of ARCHIVE_RECORD_KINDS) {
    if (manifest.counts[kind] !== vault[kind].length) {
      throw new ArchiveRefusal(400, `manifest.json counts ${manifest.counts[kind]} ${kind}, vault.json holds ${vault[kind].length}`);
    }
  }
  const photoFiles = [...entries.keys()].filter((name) => name.startsWith('photos/'));
  if (photoFiles.length !== vault.photos.length)
    throw new ArchiveRefusal(400, `vault.json lists ${vault.photos.length} photos, the archive holds ${photoFiles.length} photo files`);
  for (const photo of vault.photos) {
    const file = manifest.files[photoPath(photo)];
    if (!file) throw new ArchiveRefusal(400, `${photoPath(photo)} is missing`);
    if (file.size !== photo.size) throw new ArchiveRefusal(400, `${photoPath(photo)} has ${file.size} bytes, its record says ${photo.size}`);
  }
}
