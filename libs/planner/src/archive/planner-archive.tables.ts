import type { ArchiveRecordKind } from '@vault/contracts';
import type { ArchivedTable, ServiceArchiveTables } from '@vault/persistence';
import { activities } from '../schema/activities.table.js';
import { balance } from '../schema/balance.table.js';
import { scheduleItems } from '../schema/schedule-items.table.js';
import { studies } from '../schema/studies.table.js';
import { targets } from '../schema/targets.table.js';
import { weeklyTemplates } from '../schema/weekly-templates.table.js';

/** The planner's tables of records, by the archive record each makes (each keyed by a uuid `id`). */
export const RECORD_TABLES = {
  targets: { table: targets },
  weeklyTemplates: { table: weeklyTemplates },
  scheduleItems: { table: scheduleItems },
  missions: { table: activities },
  studies: { table: studies },
} as const satisfies Partial<Record<ArchiveRecordKind, ArchivedTable>>;
export type PlannerRecordKind = keyof typeof RECORD_TABLES;

/** Everything planner-svc keeps, and how it goes into the owner's archive. */
export const PLANNER_ARCHIVE_TABLES = {
  archived: {
    ...RECORD_TABLES,
    balance: { table: balance, leftOut: { id: 'the single row’s fixed key (1), not the owner’s data' } },
  },
  notArchived: [],
} as const satisfies ServiceArchiveTables;
