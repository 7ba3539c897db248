import type { JournalImportProgress } from '@vault/contracts';
import { contextLogger } from '@vault/platform';
import { type ImportProgressStore, UPLOADING } from './import-progress.store.js';

/** The page reads the progress about twice a second: writing it more often would only load the store. */
const REPORT_EVERY_MS = 250;

/**
 * Writes an import's progress to its record as it goes: at most every 250 ms
 * and in order, the last one always. The import never waits on it, and a
 * store that fails costs a report, never the import.
 */
export class ProgressReporter {
  private readonly logger = contextLogger(ProgressReporter.name);
  private written = Promise.resolve();
  private lastWrite = 0;
  private current: JournalImportProgress = UPLOADING;
  private unwritten = false;
  /** A report held back by the pace is written when its turn comes, not only at the next report. */
  private trailing: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: ImportProgressStore,
    private readonly id: string,
    private readonly startedAt: number,
  ) {}

  readonly report = (progress: JournalImportProgress): void => {
    this.current = progress;
    this.unwritten = true;
    const wait = this.lastWrite + REPORT_EVERY_MS - Date.now();
    if (wait <= 0) this.write();
    else this.trailing ??= setTimeout(() => this.write(), wait).unref();
  };

  /** The import ended: its last report (done) is written now. */
  async finished(): Promise<void> {
    this.write();
    await this.written;
  }

  /** The import failed: the counts it reached, marked failed. */
  async failed(): Promise<void> {
    this.current = { ...this.current, stage: 'failed' };
    this.unwritten = true;
    await this.finished();
  }

  private write(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    if (!this.unwritten) return;
    this.unwritten = false;
    this.lastWrite = Date.now();
    const record = { progress: this.current, startedAt: this.startedAt };
    this.written = this.written
      .then(() => this.store.update(this.id, record))
      .catch((error: Error) => this.logger.warn(`An import's progress was not written: ${error.message}`));
  }
}
