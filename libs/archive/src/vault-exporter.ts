import { Injectable } from '@nestjs/common';
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, ARCHIVE_RECORD_KINDS, EXPORT_PAGES, ExportBalance, ExportSettings, LocatePhoto } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { ZipFile } from 'yazl';
import { openPhotoSource } from './photo-source.js';
import { encryptArchive } from './archive-encryption.js';
import { JournalPaths, MANIFEST_JSON, VAULT_JSON, journalMarkdown, photoPath } from './archive-layout.js';
import { pagesOf } from './archive-records.js';
import type { Manifest } from './manifest.js';

/**
 * Photo files are read 16 KiB at a time rather than 64: V8 frees a read
 * chunk only at its next collection, which smaller chunks bring sooner, so
 * gigabytes of photos pass with a fraction of the resident memory
 * (bench/export-memory.mjs).
 */
const PHOTO_CHUNK_BYTES = 16 * 1024;

export interface ExportOptions {
  /** Encrypts the archive (age, scrypt) when given. */
  passphrase?: string;
}

/**
 * Assembles the owner's archive from each service's part, as one stream:
 * `vault.json` (every record), `journal/YYYY/MM/<date>-<slug>.md`, `photos/`
 * (original bytes) and last `manifest.json` (counts, and the SHA-256 of every
 * file, taken as the bytes pass). Entries are added one at a time and each is
 * written out before the next is read, so memory holds one page of records or
 * one chunk of a photo, however large the vault. Each entry's stream is
 * handed to yazl only when yazl asks for it and forgotten once read, so the
 * zip keeps nothing of an entry but its directory record
 * (bench/export-memory.mjs measures the whole).
 */
@Injectable()
export class VaultExporter {
  constructor(private readonly rpc: RpcClient) {}

  /** The archive's bytes; the stream fails (is destroyed with the cause) if a service or the photo store fails part-way. */
  stream(options: ExportOptions = {}): Readable {
    const output = new PassThrough();
    const fail = (error: Error) => output.destroy(error);
    if (!options.passphrase) {
      this.fill(output).catch(fail);
      return output;
    }
    const { archive, ready } = encryptArchive(output, options.passphrase);
    // The key is derived first; the services are asked only after.
    ready.then(() => this.fill(output)).catch(fail);
    return archive;
  }

  private async fill(output: PassThrough): Promise<void> {
    // Loaded on the first export, not at start: most runs of the vault never export.
    // yazl is CommonJS: its module object is the default export, bundled or not.
    const { default: yazl } = await import('yazl');
    const { ZipFile } = yazl;
    const zip = new ZipFile();
    zip.outputStream.on('error', (error) => output.destroy(error));
    zip.outputStream.pipe(output);
    try {
      await this.write(zip);
    } catch (error) {
      (zip.outputStream as unknown as Readable).destroy(error as Error);
      throw error;
    }
  }

  private async write(zip: ZipFile): Promise<void> {
    const exportedAt = new Date();
    const manifest: Manifest = { format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, exportedAt: exportedAt.toISOString(), counts: {}, files: {} };
    /**
     * Adds one entry and resolves once the zip has read all of it (and so
     * passed it on, under the reader's backpressure). The stream is held only
     * until yazl takes it: yazl keeps every entry's callback for the zip's
     * directory, and a callback holding its stream would keep them all.
     */
    const entry = (source: Readable, name: string, compress: boolean) => {
      const held: { source?: Readable } = { source };
      zip.addReadStreamLazy(name, { compress, mtime: exportedAt }, (take) => {
        const stream = held.source;
        held.source = undefined;
        take(null, stream!);
      });
      return finished(source);
    };
    const addStream = async (name: string, source: Readable, compress: boolean) => {
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await Promise.all([pipeline(source, meter), entry(meter, name, compress)]);
      manifest.files[name] = { size, sha256: hash.digest('hex') };
    };
    // A note is stored, not deflated: a deflate stream per note costs more memory than it saves (the text is deflated in vault.json).
    const addBuffer = async (name: string, bytes: Buffer) => {
      manifest.files[name] = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      await entry(Readable.from([bytes], { objectMode: false }), name, false);
    };

    await addStream(VAULT_JSON, Readable.from(this.vaultJson(manifest)), true);
    const paths = new JournalPaths();
    let journalFiles = 0;
    for await (const page of pagesOf(this.rpc, EXPORT_PAGES.journal)) {
      for (const note of page) {
        await addBuffer(paths.next(note), Buffer.from(journalMarkdown(note)));
        journalFiles++;
      }
    }
    manifest.counts.journalFiles = journalFiles;
    let photoFiles = 0;
    for await (const page of pagesOf(this.rpc, EXPORT_PAGES.photos)) {
      for (const photo of page) {
        // Located just before it is read: a presigned URL lives a minute.
        const located = await this.rpc.send(LocatePhoto, { id: photo.id });
        // Already compressed images are stored as they are.
        await addStream(photoPath(photo), await openPhotoSource(located.source, { chunkBytes: PHOTO_CHUNK_BYTES }), false);
        photoFiles++;
      }
    }
    manifest.counts.photoFiles = photoFiles;
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_JSON, { mtime: exportedAt });
    zip.end();
  }

  /** vault.json as text, a page of records at a time; counts each kind into the manifest as it goes. */
  private async *vaultJson(manifest: Manifest): AsyncGenerator<string> {
    const settings = await this.rpc.send(ExportSettings, {});
    const balance = await this.rpc.send(ExportBalance, {});
    const head = { format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, exportedAt: manifest.exportedAt, settings, balance };
    yield JSON.stringify(head).slice(0, -1);
    for (const kind of ARCHIVE_RECORD_KINDS) {
      yield `,\n${JSON.stringify(kind)}: [`;
      let count = 0;
      for await (const page of pagesOf(this.rpc, EXPORT_PAGES[kind])) {
        yield page.map((record) => `${count++ === 0 ? '' : ','}\n  ${JSON.stringify(record)}`).join('');
      }
      manifest.counts[kind] = count;
      yield count > 0 ? '\n]' : ']';
    }
    yield '\n}\n';
  }
}
