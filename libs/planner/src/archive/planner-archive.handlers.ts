import { Controller } from '@nestjs/common';
import {
  DiscardPlannerImport,
  ExportBalance,
  ExportMissions,
  ExportScheduleItems,
  ExportStudies,
  ExportTargets,
  ExportWeeklyTemplates,
  ImportBalance,
  ImportMissions,
  ImportScheduleItems,
  ImportStudies,
  ImportTargets,
  ImportWeeklyTemplates,
  PlannerImportReadiness,
  fitPage,
  type MissionRecord,
  type RpcRequest,
  type ScheduleItemRecord,
  type StudyRecord,
  type TargetRecord,
  type WeeklyTemplateRecord,
} from '@vault/contracts';
import { Handles } from '@vault/transport';
import type { ActivityRow } from '../schema/activities.table.js';
import type { ScheduleItemRow } from '../schema/schedule-items.table.js';
import type { StudyRow } from '../schema/studies.table.js';
import type { TargetRow } from '../schema/targets.table.js';
import type { WeeklyTemplateRow } from '../schema/weekly-templates.table.js';
import { PlannerArchiveRepository, RECORD_TABLES } from './planner-archive.repository.js';

type Page = { after?: string };
const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
const dateOrNull = (value: string | null) => (value ? new Date(value) : null);

/** planner-svc's part of an export and of a restore: its records exactly as stored. */
@Controller()
export class PlannerArchiveHandlers {
  constructor(private readonly archive: PlannerArchiveRepository) {}

  @Handles(ExportTargets)
  async exportTargets({ after }: Page) {
    const rows = await this.archive.page(RECORD_TABLES.targets, after);
    return fitPage(rows.map(targetRecord), rows.length < 500);
  }

  @Handles(ExportWeeklyTemplates)
  async exportWeeklyTemplates({ after }: Page) {
    const rows = await this.archive.page(RECORD_TABLES.weeklyTemplates, after);
    return fitPage(rows.map(weeklyTemplateRecord), rows.length < 500);
  }

  @Handles(ExportScheduleItems)
  async exportScheduleItems({ after }: Page) {
    const rows = await this.archive.page(RECORD_TABLES.scheduleItems, after);
    return fitPage(rows.map(scheduleItemRecord), rows.length < 500);
  }

  @Handles(ExportMissions)
  async exportMissions({ after }: Page) {
    const rows = await this.archive.page(RECORD_TABLES.missions, after);
    return fitPage(rows.map(missionRecord), rows.length < 500);
  }

  @Handles(ExportStudies)
  async exportStudies({ after }: Page) {
    const rows = await this.archive.page(RECORD_TABLES.studies, after);
    return fitPage(rows.map(studyRecord), rows.length < 500);
  }

  @Handles(ExportBalance)
  async exportBalance() {
    return { amount: await this.archive.balance() };
  }

  @Handles(ImportTargets)
  async importTargets({ records }: RpcRequest<typeof ImportTargets>) {
    const rows = records.map((r) => ({ ...r, createdAt: new Date(r.createdAt), completedAt: dateOrNull(r.completedAt) }));
    return { imported: await this.archive.insert(RECORD_TABLES.targets, rows, 'targets') };
  }

  @Handles(ImportWeeklyTemplates)
  async importWeeklyTemplates({ records }: RpcRequest<typeof ImportWeeklyTemplates>) {
    const rows = records.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
    return { imported: await this.archive.insert(RECORD_TABLES.weeklyTemplates, rows, 'weeklyTemplates') };
  }

  /** After the weekly templates: an item names the template it came from. */
  @Handles(ImportScheduleItems)
  async importScheduleItems({ records }: RpcRequest<typeof ImportScheduleItems>) {
    const rows = records.map((r) => ({ ...r, createdAt: new Date(r.createdAt), completedAt: dateOrNull(r.completedAt) }));
    return { imported: await this.archive.insert(RECORD_TABLES.scheduleItems, rows, 'scheduleItems') };
  }

  @Handles(ImportMissions)
  async importMissions({ records }: RpcRequest<typeof ImportMissions>) {
    const rows = records.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
    return { imported: await this.archive.insert(RECORD_TABLES.missions, rows, 'missions') };
  }

  @Handles(ImportStudies)
  async importStudies({ records }: RpcRequest<typeof ImportStudies>) {
    const rows = records.map((r) => ({ ...r, createdAt: new Date(r.createdAt), completedAt: dateOrNull(r.completedAt) }));
    return { imported: await this.archive.insert(RECORD_TABLES.studies, rows, 'studies') };
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

function targetRecord(row: TargetRow): TargetRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    completed: row.completed,
    createdAt: iso(row.createdAt),
    completedAt: isoOrNull(row.completedAt),
  };
}

function weeklyTemplateRecord(row: WeeklyTemplateRow): WeeklyTemplateRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    time: row.time,
    dayOfWeek: row.dayOfWeek,
    isRepeating: row.isRepeating,
    createdAt: iso(row.createdAt),
  };
}

function scheduleItemRecord(row: ScheduleItemRow): ScheduleItemRecord {
  return {
    id: row.id,
    date: row.date,
    time: row.time,
    title: row.title,
    description: row.description,
    completed: row.completed,
    completedAt: isoOrNull(row.completedAt),
    templateId: row.templateId,
    createdAt: iso(row.createdAt),
  };
}

function missionRecord(row: ActivityRow): MissionRecord {
  return { id: row.id, title: row.title, description: row.description, createdAt: iso(row.createdAt) };
}

function studyRecord(row: StudyRow): StudyRecord {
  return {
    id: row.id,
    subject: row.subject,
    endGoal: row.endGoal,
    completed: row.completed,
    completedAt: isoOrNull(row.completedAt),
    createdAt: iso(row.createdAt),
  };
}
