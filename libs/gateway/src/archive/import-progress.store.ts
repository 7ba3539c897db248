import type { JournalImportProgress } from '@vault/contracts';
import type { Redis } from 'ioredis';
import { MemoryRecordStore } from '../session/memory-session.store.js';
import { RedisRecordStore } from '../session/redis-session.store.js';
import type { RecordStore } from '../session/session.store.js';

/**
 * A journal import's progress, for the page that sent it to read while the
 * server stores it (it may be read by another gateway replica than the one
 * importing). Counts only; it lives an hour from its start.
 */
export interface ImportProgressRecord {
  progress: JournalImportProgress;
  /** Epoch milliseconds of its start. */
  startedAt: number;
}

export const IMPORT_PROGRESS_TTL_SECONDS = 3600;

export type ImportProgressStore = RecordStore<ImportProgressRecord>;

export const IMPORT_PROGRESS = Symbol('IMPORT_PROGRESS');

/** Where an import stands before its upload has arrived. */
export const UPLOADING: JournalImportProgress = { stage: 'uploading', entries: { stored: 0, total: 0 }, photos: { stored: 0, total: 0 } };

/** Kept where the sessions are: in memory (embedded), or in Redis under a prefix of its own (distributed). */
export function importProgressStore(redis: Redis | undefined): ImportProgressStore {
  const ttlMs = IMPORT_PROGRESS_TTL_SECONDS * 1000;
  const startOf = (record: ImportProgressRecord) => record.startedAt;
  return redis ? new RedisRecordStore(redis, ttlMs, 'vault:import-progress:', startOf) : new MemoryRecordStore(ttlMs, startOf);
}
