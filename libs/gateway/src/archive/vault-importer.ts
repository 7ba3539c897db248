import { Injectable } from '@nestjs/common';
import {
  ARCHIVE_PAGE_BYTES,
  ARCHIVE_PAGE_RECORDS,
  DiscardAccessLogImport,
  DiscardJournalImport,
  DiscardMediaImport,
  DiscardPlannerImport,
  ImportAccessLog,
  ImportBalance,
  ImportJournal,
  ImportMissions,
  ImportPhoto,
  ImportScheduleItems,
  ImportSettings,
  ImportStudies,
  ImportTargets,
  ImportWeeklyTemplates,
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
      await this.sendInPages(ImportTargets, vault.targets);
      // Templates before the schedule items that name them.
      await this.sendInPages(ImportWeeklyTemplates, vault.weeklyTemplates);
      await this.sendInPages(ImportScheduleItems, vault.scheduleItems);
      await this.sendInPages(ImportMissions, vault.missions);
      await this.sendInPages(ImportStudies, vault.studies);
      await this.rpc.send(ImportBalance, vault.balance);
      await this.sendInPages(ImportJournal, vault.journal);
      for (const photo of vault.photos) {
        const slot = await this.rpc.send(ReservePhotoImport, {});
        await writePhotoTarget(slot.target, await archive.openPhoto(photo), photo.size);
        await this.rpc.send(ImportPhoto, { key: slot.key, record: photo, sha256: archive.manifest.files[photoPath(photo)].sha256 });
      }
      await this.sendInPages(ImportAccessLog, vault.accessLog);
      const settings: SettingsRecord = await this.rpc.send(ImportSettings, vault.settings);
      const restored = Object.fromEntries(
        (['targets', 'weeklyTemplates', 'scheduleItems', 'missions', 'studies', 'journal', 'photos', 'accessLog'] as const).map((kind) => [
          kind,
          vault[kind].length,
        ]),
      );
      return { restored, globalAccess: settings.globalAccess };
    } catch (error) {
      await this.discard(vault.accessLog.map((record) => record.id));
      throw error;
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
