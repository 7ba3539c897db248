import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { UPLOAD_URL_TTL_SECONDS } from '@vault/contracts';
import { MEDIA_OPTIONS, type MediaOptions } from '../media.options.js';
import { OBJECT_STORE, UPLOAD_PREFIX, type ObjectStore } from '../storage/object.store.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { ErasureWatchRepository } from './erasure-watch.repository.js';

/** How often a watch looks for objects that old upload URLs brought in: the bound on how long such an object stays. */
export const ERASURE_SWEEP_INTERVAL_MS = 5000;

/**
 * How long after the last upload URL expired the watch goes on. S3 checks
 * the expiry when a PUT starts, so a PUT started just before may still be
 * sending; five minutes carry 10 MB at 35 KB/s.
 */
export const LATE_PUT_GRACE_SECONDS = 300;

/**
 * An erase cannot revoke the presigned URLs issued before it: until they
 * have expired, a browser can still write through them. So, after an erase,
 * this removes every object under `uploads/` that has no upload row, every
 * few seconds, until the deadline. An object without a row can only come
 * from a URL of the erased vault: the rows went with it, and a new vault's
 * upload has its row before its URL exists. The deadline is kept in
 * `media.erasure_watch`, so a restarted media-svc resumes the watch at start.
 *
 * Only a bucket needs it: the embedded store answers its own upload URLs,
 * and refuses every one whose row is gone.
 */
@Injectable()
export class ErasureWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = contextLogger(ErasureWatch.name);
  private readonly intervalMs: number;
  private readonly ttlSeconds: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  /** Woken during a pass, which may have read the deadline before the erase that woke it. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly watches: ErasureWatchRepository,
    private readonly uploads: UploadsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_OPTIONS) options: MediaOptions,
  ) {
    this.intervalMs = options.erasureSweepIntervalMs ?? ERASURE_SWEEP_INTERVAL_MS;
    this.ttlSeconds = options.uploadUrlTtlSeconds ?? UPLOAD_URL_TTL_SECONDS;
  }

  /**
   * Called by an erase before it removes anything (so a retry after a crash
   * extends it again): every URL issued until now expires within its
   * lifetime, and a PUT started just before then gets the grace.
   */
  async begin(): Promise<void> {
    if (this.store.kind !== 's3') return;
    await this.watches.extend(UPLOAD_PREFIX, new Date(Date.now() + (this.ttlSeconds + LATE_PUT_GRACE_SECONDS) * 1000));
  }

  onApplicationBootstrap() {
    this.wake();
  }

  async onApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Sweeps now (after an erase, or at start); a pass under way is followed by another. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.sweep().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * One pass: removes the objects without a row, then ends the watch if its
   * deadline had passed before the pass began (so the last pass comes after
   * it). Schedules the next pass while the watch lasts; answers how many
   * objects went.
   */
  async sweep(): Promise<number> {
    const began = new Date();
    let removed = 0;
    let watching = false;
    try {
      if (!(await this.watches.until(UPLOAD_PREFIX))) return 0;
      removed = await this.store.removeChosen(UPLOAD_PREFIX, async (keys) => {
        const recorded = await this.uploads.recordedAmong(keys);
        return keys.filter((key) => !recorded.has(key));
      });
      if (removed > 0) this.logger.info(`Removed ${removed} object(s) written after the erase through upload URLs issued before it`);
      watching = !(await this.watches.endBy(UPLOAD_PREFIX, began));
    } catch (error) {
      // The bucket or the database did not answer: the watch is kept and tried again.
      this.logger.warn(`Could not sweep after the erase: ${(error as Error).message}`);
      watching = true;
    } finally {
      if (watching && !this.stopped) this.timer = setTimeout(() => this.wake(), this.intervalMs);
    }
    return removed;
  }
}
