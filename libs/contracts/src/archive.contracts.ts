import { z } from 'zod';
import { DESCRIPTION_MAX, Empty, RecordId, RecordTime, TITLE_MAX, recordNonEmpty, recordText } from './fields.js';
import { JOURNAL_CONTENT_MAX } from './journal.contracts.js';
import { EXPORT_PASSPHRASE_MIN, PHOTO_MAX_BYTES } from './limits.js';
import { PhotoContentType } from './media.contracts.js';
import { ClockTime, IsoDate } from './planner-fields.js';
import { defineRpc } from './rpc.js';
import { TargetRecord } from './targets.contracts.js';
import type { ServiceName } from './services.js';

/**
 * The owner's export: every record of every service, as each service keeps
 * it (ids and every timestamp), so a restore puts back exactly what left.
 * Each service reads and writes its own part through these contracts; the
 * gateway only assembles and takes apart the archive.
 */
export const ARCHIVE_FORMAT = 'vault-export';
/** Raised whenever a record's shape changes; an archive of another version is refused, never guessed at. */
export const ARCHIVE_FORMAT_VERSION = 1;

/** A page of records on the message bus stays well under NATS's 1 MB, whatever the records hold. */
export const ARCHIVE_PAGE_BYTES = 256 * 1024;
export const ARCHIVE_PAGE_RECORDS = 500;

const Id = RecordId;
const Timestamp = RecordTime;
const Text = recordText;
const NonEmpty = recordNonEmpty;

export const WeeklyTemplateRecord = z.strictObject({
  id: Id,
  title: NonEmpty(TITLE_MAX),
  description: Text(DESCRIPTION_MAX).nullable(),
  time: ClockTime,
  dayOfWeek: z.number().int().min(0).max(6),
  isRepeating: z.boolean(),
  createdAt: Timestamp,
});
export type WeeklyTemplateRecord = z.infer<typeof WeeklyTemplateRecord>;

export const ScheduleItemRecord = z.strictObject({
  id: Id,
  date: IsoDate,
  time: ClockTime,
  title: NonEmpty(TITLE_MAX),
  description: Text(DESCRIPTION_MAX).nullable(),
  completed: z.boolean(),
  completedAt: Timestamp.nullable(),
  templateId: Id.nullable(),
  createdAt: Timestamp,
});
export type ScheduleItemRecord = z.infer<typeof ScheduleItemRecord>;

/** A custom mission (the planner's `activities`). */
export const MissionRecord = z.strictObject({
  id: Id,
  title: NonEmpty(TITLE_MAX),
  description: Text(DESCRIPTION_MAX).nullable(),
  createdAt: Timestamp,
});
export type MissionRecord = z.infer<typeof MissionRecord>;

export const StudyRecord = z.strictObject({
  id: Id,
  subject: NonEmpty(TITLE_MAX),
  endGoal: NonEmpty(DESCRIPTION_MAX),
  completed: z.boolean(),
  completedAt: Timestamp.nullable(),
  createdAt: Timestamp,
});
export type StudyRecord = z.infer<typeof StudyRecord>;

/** Decimal text, exact to the cent, as the database keeps it (numeric(12, 2)). */
export const BalanceRecord = z.strictObject({
  amount: z.string().regex(/^\d{1,10}\.\d{2}$/, 'must be a decimal amount with 2 places'),
});
export type BalanceRecord = z.infer<typeof BalanceRecord>;

/** In plain text: the archive is the owner's copy, readable without Vault (encrypt it with a passphrase to keep it private). */
export const JournalRecord = z.strictObject({
  id: Id,
  title: NonEmpty(TITLE_MAX).nullable(),
  content: NonEmpty(JOURNAL_CONTENT_MAX),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type JournalRecord = z.infer<typeof JournalRecord>;

/** A photo's record; its original bytes are the archive's `photos/<id>.<ext>`. */
export const PhotoRecord = z.strictObject({
  id: Id,
  contentType: PhotoContentType,
  size: z.number().int().min(1).max(PHOTO_MAX_BYTES),
  createdAt: Timestamp,
});
export type PhotoRecord = z.infer<typeof PhotoRecord>;

export const AccessLogRecord = z.strictObject({
  id: Id,
  ipAddress: Text(100),
  userAgent: Text(1000).nullable(),
  action: NonEmpty(64),
  success: z.boolean(),
  createdAt: Timestamp,
});
export type AccessLogRecord = z.infer<typeof AccessLogRecord>;

export const SettingsRecord = z.strictObject({ globalAccess: z.boolean() });
export type SettingsRecord = z.infer<typeof SettingsRecord>;

/**
 * Every kind of paged record the archive carries, in `vault.json`'s order (a
 * restore's too: the weekly templates before the schedule items that name
 * them): the service that keeps it, the topic of its export and import
 * patterns (`planner.export.weekly-templates`), and its record. The one list
 * of kinds: `vault.json`'s shape, the page contracts, the manifest's counts
 * and a restore's summary are derived from it.
 */
export const ARCHIVE_RECORDS = {
  targets: { service: 'planner', topic: 'targets', record: TargetRecord },
  weeklyTemplates: { service: 'planner', topic: 'weekly-templates', record: WeeklyTemplateRecord },
  scheduleItems: { service: 'planner', topic: 'schedule-items', record: ScheduleItemRecord },
  missions: { service: 'planner', topic: 'missions', record: MissionRecord },
  studies: { service: 'planner', topic: 'studies', record: StudyRecord },
  journal: { service: 'journal', topic: 'entries', record: JournalRecord },
  photos: { service: 'media', topic: 'photos', record: PhotoRecord },
  accessLog: { service: 'audit', topic: 'access-log', record: AccessLogRecord },
} as const satisfies Record<string, { service: ServiceName; topic: string; record: z.ZodType }>;
type ArchiveRecords = typeof ARCHIVE_RECORDS;
export type ArchiveRecordKind = keyof ArchiveRecords;
/** The record of one kind, as `vault.json` holds it. */
export type ArchiveRecord<K extends ArchiveRecordKind> = z.infer<ArchiveRecords[K]['record']>;

/** The kinds of paged records, in the order `vault.json` holds them. */
export const ARCHIVE_RECORD_KINDS = Object.keys(ARCHIVE_RECORDS) as ArchiveRecordKind[];

/** One value per kind of record (of `kinds`), made by `make`; `T` names each kind's value type. */
function perKind<T>(make: <K extends ArchiveRecordKind>(kind: K, entry: ArchiveRecords[K]) => unknown, kinds = ARCHIVE_RECORD_KINDS): T {
  return Object.fromEntries(kinds.map((kind) => [kind, make(kind, ARCHIVE_RECORDS[kind])])) as T;
}

/** `vault.json`: the whole vault, one key per kind of record. */
export const VaultArchive = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.literal(ARCHIVE_FORMAT_VERSION),
  exportedAt: Timestamp,
  settings: SettingsRecord,
  balance: BalanceRecord,
  ...perKind<{ [K in ArchiveRecordKind]: z.ZodArray<ArchiveRecords[K]['record']> }>((_kind, entry) => z.array(entry.record)),
});
export type VaultArchive = z.infer<typeof VaultArchive>;

/** Keyset paging by id: stable while the owner keeps writing, and no page is read twice. */
export const ExportPageRequest = z.object({ after: Id.optional() });

function exportPage<R extends z.ZodType>(pattern: string, record: R) {
  return defineRpc({
    pattern,
    request: ExportPageRequest,
    // `next` is the `after` of the following page; absent on the last one.
    response: z.object({ records: z.array(record), next: Id.optional() }),
    timeoutMs: 15_000,
  });
}

function importPage<R extends z.ZodType>(pattern: string, record: R) {
  return defineRpc({
    pattern,
    request: z.object({ records: z.array(record).max(ARCHIVE_PAGE_RECORDS) }),
    response: z.object({ imported: z.number() }),
    timeoutMs: 15_000,
  });
}

type ExportPageOf<R extends z.ZodType> = ReturnType<typeof exportPage<R>>;
type ImportPageOf<R extends z.ZodType> = ReturnType<typeof importPage<R>>;

/** Each kind's export, a page at a time (`<service>.export.<topic>`), answered by the service that keeps it. */
export const EXPORT_PAGES = perKind<{ [K in ArchiveRecordKind]: ExportPageOf<ArchiveRecords[K]['record']> }>((_kind, entry) =>
  exportPage(`${entry.service}.export.${entry.topic}`, entry.record),
);

/** Kinds whose records come back in pages; a photo comes back one at a time, with its bytes (ImportPhoto). */
export type PagedImportKind = Exclude<ArchiveRecordKind, 'photos'>;
/** Each paged kind's restore, a page at a time (`<service>.import.<topic>`). */
export const IMPORT_PAGES = perKind<{ [K in PagedImportKind]: ImportPageOf<ArchiveRecords[K]['record']> }>(
  (_kind, entry) => importPage(`${entry.service}.import.${entry.topic}`, entry.record),
  ARCHIVE_RECORD_KINDS.filter((kind) => kind !== 'photos'),
);

/** Whether a service holds nothing of the owner's: a restore goes into an empty vault only. */
export const ImportReadiness = z.object({ service: z.string(), empty: z.boolean(), holds: z.array(z.string()) });
export type ImportReadiness = z.infer<typeof ImportReadiness>;
const readiness = (service: string) => defineRpc({ pattern: `${service}.import.readiness`, request: Empty, response: ImportReadiness, timeoutMs: 5000 });
/** Takes back a restore that failed part-way: the service is empty again. Only ever asked of a vault that was empty. */
const discard = (service: string) =>
  defineRpc({
    pattern: `${service}.import.discard`,
    request: Empty,
    response: z.object({ service: z.string(), discarded: z.literal(true) }),
    timeoutMs: 30_000,
  });

// auth-svc: the owner's settings (the credential stays the new vault's own).
export const ExportSettings = defineRpc({ pattern: 'auth.export.settings', request: Empty, response: SettingsRecord });
export const ImportSettings = defineRpc({ pattern: 'auth.import.settings', request: SettingsRecord, response: SettingsRecord });

// planner-svc
export const ExportBalance = defineRpc({ pattern: 'planner.export.balance', request: Empty, response: BalanceRecord });
export const ImportBalance = defineRpc({ pattern: 'planner.import.balance', request: BalanceRecord, response: BalanceRecord });
export const PlannerImportReadiness = readiness('planner');
export const DiscardPlannerImport = discard('planner');

// journal-svc: decrypted on the way out, encrypted under this vault's key on the way in.
export const JournalImportReadiness = readiness('journal');
export const DiscardJournalImport = discard('journal');

// audit-svc
/** The restored records only, by id: the new vault's own log (its sign-ins) stays. */
export const DiscardAccessLogImport = defineRpc({
  pattern: 'audit.import.discard',
  request: z.object({ ids: z.array(Id).max(ARCHIVE_PAGE_RECORDS) }),
  response: z.object({ discarded: z.number() }),
  timeoutMs: 15_000,
});

/**
 * media-svc: the records; the gateway reads each photo's bytes where
 * LocatePhoto says, just before it writes them (a presigned URL is short-lived),
 * so they never cross the message bus. On the way in, the gateway writes the
 * bytes where media-svc says, then media-svc checks and keeps them.
 */

/** Where the gateway writes one photo's bytes: a presigned PUT on the bucket, or a file of the embedded store. */
export const PhotoTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string(), headers: z.record(z.string(), z.string()) }),
  z.object({ kind: z.literal('file'), path: z.string() }),
]);
export type PhotoTarget = z.infer<typeof PhotoTarget>;

export const ReservePhotoImport = defineRpc({
  pattern: 'media.import.reserve',
  request: Empty,
  response: z.object({ key: z.string(), target: PhotoTarget }),
});

/** Keeps the bytes written to a reserved key as this photo, once their size, hash and type match its record. */
export const ImportPhoto = defineRpc({
  pattern: 'media.import.photo',
  request: z.object({ key: z.string().max(200), record: PhotoRecord, sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  response: PhotoRecord,
  timeoutMs: 20_000,
});
export const MediaImportReadiness = readiness('media');
export const DiscardMediaImport = discard('media');

const utf8 = new TextEncoder();

/**
 * Cuts the rows a service read (at most ARCHIVE_PAGE_RECORDS, in id order)
 * to what fits one message: records until ARCHIVE_PAGE_BYTES of JSON (at least
 * one, which fits alone: every field is bounded). `next` names where the
 * following page starts, or is absent when none follows.
 */
export function fitPage<T extends { id: string }>(records: T[], readAll: boolean): { records: T[]; next?: string } {
  let bytes = 0;
  let taken = 0;
  for (const record of records) {
    bytes += utf8.encode(JSON.stringify(record)).length;
    if (taken > 0 && bytes > ARCHIVE_PAGE_BYTES) break;
    taken++;
  }
  const page = records.slice(0, taken);
  const more = taken < records.length || !readAll;
  return more && page.length > 0 ? { records: page, next: page[page.length - 1].id } : { records: page };
}

/**
 * `POST /api/settings/export`: the owner's password again (a session left
 * open is not enough to take everything), and an optional passphrase that
 * encrypts the archive (age, scrypt).
 */
export const ExportRequest = z.strictObject({
  password: z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'is too long'),
  passphrase: z
    .string({ error: 'must be a string' })
    .min(EXPORT_PASSPHRASE_MIN, `must be at least ${EXPORT_PASSPHRASE_MIN} characters`)
    .max(1024, 'must be at most 1024 characters')
    .optional(),
});
export type ExportRequest = z.input<typeof ExportRequest>;

/** What a restore answers: how many records of each kind came back. */
export const RestoreSummary = z.object({ restored: z.record(z.string(), z.number()) });
export type RestoreSummary = z.infer<typeof RestoreSummary>;
