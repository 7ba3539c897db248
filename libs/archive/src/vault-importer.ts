import { Injectable } from '@nestjs/common';
import {
  ARCHIVE_PAGE_BYTES,
  ARCHIVE_PAGE_RECORDS,
  DiscardAccessLogImport,
  DiscardJournalImport,
  DiscardMediaImport,
  DiscardPlannerImport,
  ARCHIVE_RECORD_KINDS,
  IMPORT_PAGES,
  ImportBalance,
  ImportPhoto,
  ImportSettings,
  JournalImportReadiness,
  MediaImportReadiness,
  PlannerImportReadiness,
  ReservePhotoImport,
  type RestoreSummary,
  type RpcContract,
  type SettingsRecord,
} from '@vault/contracts';
import { contextLogger } from '@vault/platform';
import { RpcClient } from '@vault/transport';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ArchiveRefusal } from './archive-refusal.js';
import { photoPath } from './archive-layout.js';
import { openVerifiedArchive, type VerifiedArchive } from './archive-reader.js';
import { writePhotoTarget } from './photo-target.js';
import { spoolArchive, type SpoolOptions } from './spool.js';

/**
 * Restores an archive into an empty vault, all or nothing. The whole archive
 * is checked first (archive-reader.ts) and the vault must hold nothing of
 * the owner's; only then does each service take its records (same ids and
 * times; journal entries sealed under this vault's key; photos into this
 * vault's store). A failure part-way has every service discard what it took,
 * so the vault is empty again.
 */
@Injectable()
export class VaultImporter {
  private readonly logger = contextLogger(VaultImporter.name);
  private running = false;

  constructor(private readonly rpc: RpcClient) {}

  /** From an upload or a file: spooled (and decrypted) to a private temporary file, then restored. */
  async restore(source: SpoolOptions): Promise<RestoreSummary & { globalAccess: boolean }> {
    if (this.running) throw new ArchiveRefusal(409, 'A restore is already running');
    this.running = true;
    let spooled: string | undefined;
    try {
      await this.requireEmpty();
      spooled = await spoolArchive(source);
      const archive = await openVerifiedArchive(spooled);
      try {
        // Checked again: the vault may have been written to while the archive was read.
        await this.requireEmpty();
        return await this.importAll(archive);
      } finally {
        archive.close();
      }
    } finally {
      this.running = false;
      // The spool's whole private folder goes, whatever happened.
      if (spooled) await rm(dirname(spooled), { recursive: true, force: true });
    }
  }

  private async requireEmpty(): Promise<void> {
    const answers = await Promise.all([PlannerImportReadiness, JournalImportReadiness, MediaImportReadiness].map((contract) => this.rpc.send(contract, {})));
    const holds = answers.flatMap((answer) => answer.holds);
    if (holds.length > 0) throw new ArchiveRefusal(409, `This vault is not empty (it holds ${holds.join(', ')}): a restore goes into an empty vault only`);
  }

  private async importAll(archive: VerifiedArchive): Promise<RestoreSummary & { globalAccess: boolean }> {
    const { vault } = archive;
    try {
      // Each kind in the archive's order (templates before the schedule items that name them).
      for (const kind of ARCHIVE_RECORD_KINDS) {
        if (kind !== 'photos') await this.sendInPages(IMPORT_PAGES[kind], vault[kind]);
        else await this.importPhotos(archive);
      }
      await this.rpc.send(ImportBalance, vault.balance);
      const settings: SettingsRecord = await this.rpc.send(ImportSettings, vault.settings);
      const restored = Object.fromEntries(ARCHIVE_RECORD_KINDS.map((kind) => [kind, vault[kind].length]));
      return { restored, globalAccess: settings.globalAccess };
    } catch (error) {
      await this.discard(vault.accessLog.map((record) => record.id));
      throw error;
    }
  }

  /** Each photo's bytes where media-svc says, then its record, which media-svc keeps once the bytes match it. */
  private async importPhotos(archive: VerifiedArchive): Promise<void> {
    for (const photo of archive.vault.photos) {
      const slot = await this.rpc.send(ReservePhotoImport, {});
      await writePhotoTarget(slot.target, archive.photo(photo));
      await this.rpc.send(ImportPhoto, { key: slot.key, record: photo, sha256: archive.manifest.files[photoPath(photo)].sha256 });
    }
  }

  /** Records in batches that fit one message (by count and by bytes). */
  private async sendInPages<C extends RpcContract>(contract: C, records: readonly unknown[]): Promise<void> {
    let batch: unknown[] = [];
    let bytes = 0;
    for (const record of records) {
      const size = Buffer.byteLength(JSON.stringify(record));
      if (batch.length > 0 && (batch.length >= ARCHIVE_PAGE_RECORDS || bytes + size > ARCHIVE_PAGE_BYTES * 2)) {
        await this.rpc.send(contract, { records: batch } as never);
        batch = [];
        bytes = 0;
      }
      batch.push(record);
      bytes += size;
    }
    if (batch.length > 0) await this.rpc.send(contract, { records: batch } as never);
  }

  /** Every service back to empty; a failure here is logged and named, as the vault then holds part of an archive. */
  private async discard(accessLogIds: string[]): Promise<void> {
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['planner', () => this.rpc.send(DiscardPlannerImport, {})],
      ['journal', () => this.rpc.send(DiscardJournalImport, {})],
      ['media', () => this.rpc.send(DiscardMediaImport, {})],
      [
        'audit',
        async () => {
          for (let i = 0; i < accessLogIds.length; i += ARCHIVE_PAGE_RECORDS)
            await this.rpc.send(DiscardAccessLogImport, { ids: accessLogIds.slice(i, i + ARCHIVE_PAGE_RECORDS) });
        },
      ],
      ['auth', () => this.rpc.send(ImportSettings, { globalAccess: false })],
    ];
    const failed: string[] = [];
    for (const [service, step] of steps) {
      await step().catch((error: Error) => {
        failed.push(service);
        this.logger.error(`A failed restore could not be taken back in ${service}: ${error.message}`);
      });
    }
    if (failed.length > 0) {
      this.logger.error(`The vault holds part of an archive (${failed.join(', ')}): erase it (self-destruct) before restoring again`);
    }
  }
}
