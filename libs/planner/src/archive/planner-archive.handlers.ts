import { Controller } from '@nestjs/common';
import { DiscardPlannerImport, EXPORT_PAGES, ExportBalance, IMPORT_PAGES, ImportBalance, PlannerImportReadiness, type RpcRequest } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { PlannerArchiveRepository } from './planner-archive.repository.js';

type Page = { after?: string };

/** planner-svc's part of an export and of a restore: its records exactly as stored (planner-archive.tables.ts). */
@Controller()
export class PlannerArchiveHandlers {
  constructor(private readonly archive: PlannerArchiveRepository) {}

  @Handles(EXPORT_PAGES.targets)
  exportTargets({ after }: Page) {
    return this.archive.exportPage('targets', after);
  }

  @Handles(EXPORT_PAGES.weeklyTemplates)
  exportWeeklyTemplates({ after }: Page) {
    return this.archive.exportPage('weeklyTemplates', after);
  }

  @Handles(EXPORT_PAGES.scheduleItems)
  exportScheduleItems({ after }: Page) {
    return this.archive.exportPage('scheduleItems', after);
  }

  @Handles(EXPORT_PAGES.missions)
  exportMissions({ after }: Page) {
    return this.archive.exportPage('missions', after);
  }

  @Handles(EXPORT_PAGES.studies)
  exportStudies({ after }: Page) {
    return this.archive.exportPage('studies', after);
  }

  @Handles(ExportBalance)
  async exportBalance() {
    return { amount: await this.archive.balance() };
  }

  @Handles(IMPORT_PAGES.targets)
  importTargets({ records }: RpcRequest<typeof IMPORT_PAGES.targets>) {
    return this.archive.importPage('targets', records);
  }

  @Handles(IMPORT_PAGES.weeklyTemplates)
  importWeeklyTemplates({ records }: RpcRequest<typeof IMPORT_PAGES.weeklyTemplates>) {
    return this.archive.importPage('weeklyTemplates', records);
  }

  /** After the weekly templates: an item names the template it came from. */
  @Handles(IMPORT_PAGES.scheduleItems)
  importScheduleItems({ records }: RpcRequest<typeof IMPORT_PAGES.scheduleItems>) {
    return this.archive.importPage('scheduleItems', records);
  }

  @Handles(IMPORT_PAGES.missions)
  importMissions({ records }: RpcRequest<typeof IMPORT_PAGES.missions>) {
    return this.archive.importPage('missions', records);
  }

  @Handles(IMPORT_PAGES.studies)
  importStudies({ records }: RpcRequest<typeof IMPORT_PAGES.studies>) {
    return this.archive.importPage('studies', records);
  }

  @Handles(ImportBalance)
  async importBalance({ amount }: RpcRequest<typeof ImportBalance>) {
    await this.archive.setBalance(amount);
    return { amount: await this.archive.balance() };
  }

  @Handles(PlannerImportReadiness)
  async readiness() {
    const holds = await this.archive.holdings();
    return { service: 'planner', empty: holds.length === 0, holds };
  }

  @Handles(DiscardPlannerImport)
  async discard() {
    await this.archive.discardAll();
    return { service: 'planner', discarded: true as const };
  }
}
