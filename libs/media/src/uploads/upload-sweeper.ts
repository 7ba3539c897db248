import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { UPLOAD_URL_TTL_SECONDS } from '@vault/contracts';
import { ErasureWatchRepository } from '../erase/erasure-watch.repository.js';
import { MEDIA_OPTIONS, type MediaOptions } from '../media.options.js';
import { OBJECT_STORE, UPLOAD_PREFIX, type ObjectStore } from '../storage/object.store.js';
import { UploadsRepository } from './uploads.repository.js';

/** How often the sweep passes while a URL it cannot revoke may still write: the bound on how long such an object stays. */
export const UPLOAD_SWEEP_INTERVAL_MS = 5000;

/**
 * How long after its URL expired an upload may still be registered: the
 * web app registers right after its PUT, which may have ended just before
 * the expiry. Then the upload is discarded and its object removed.
 */
export const REGISTRATION_GRACE_SECONDS = 60;

/**
 * How long after its URL expired an upload's key is still watched. S3
 * checks the expiry when a PUT starts, so a PUT started just before may
 * still be sending; five minutes carry 10 MB at 35 KB/s.
 */
export const LATE_PUT_GRACE_SECONDS = 300;

/** The longest the sweep sleeps: an object that outlived its row (a PUT slower still) goes within the hour. */
const LONGEST_SLEEP_MS = 60 * 60 * 1000;

/**
 * Keeps `uploads/` to what may still become a photo. Each pass removes:
 *
 * - every object without an upload row: a row is written before its URL
 *   exists and removed after the URL can no longer write, so such an
 *   object came from the URL of an erased vault, or from a PUT slower than
 *   the grace;
 * - every object of a discarded upload: refused at registration (its bytes
 *   went then; this takes what its URL brought after), or not registered
 *   within `REGISTRATION_GRACE_SECONDS` of its URL's expiry (this pass
 *   discards those first, so none of them can be registered any more);
 * - every object, and then the row, of an upload whose URL expired more
 *   than `LATE_PUT_GRACE_SECONDS` ago (a registered upload's tombstone).
 *
 * It passes every few seconds while a URL that cannot be revoked may still
 * bring an object that must go (a bucket's, after an erase or while a
 * discarded upload is on record), and otherwise when the next upload falls
 * due, at least hourly.
 * After an erase the watch's deadline is kept in `media.erasure_watch`, and
 * every deadline in `media.uploads`, so a restarted media-svc resumes them.
 */
@Injectable()
export class UploadSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = contextLogger(UploadSweeper.name);
  private readonly intervalMs: number;
  private readonly ttlSeconds: number;
  private readonly registrationGraceMs: number;
  private readonly latePutGraceMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms). */
  private due = Number.POSITIVE_INFINITY;
  private running: Promise<unknown> | undefined;
  /** Woken during a pass, which may have read the state before what woke it. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly watches: ErasureWatchRepository,
    private readonly uploads: UploadsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_OPTIONS) options: MediaOptions,
  ) {
    this.intervalMs = options.uploadSweepIntervalMs ?? UPLOAD_SWEEP_INTERVAL_MS;
    this.ttlSeconds = options.uploadUrlTtlSeconds ?? UPLOAD_URL_TTL_SECONDS;
    this.registrationGraceMs = (options.registrationGraceSeconds ?? REGISTRATION_GRACE_SECONDS) * 1000;
    this.latePutGraceMs = (options.latePutGraceSeconds ?? LATE_PUT_GRACE_SECONDS) * 1000;
  }

  /**
   * Called by an erase before it removes anything (so a retry after a crash
   * extends it again): every URL issued until now expires within its
   * lifetime, and a PUT started just before then gets the grace. Only a
   * bucket needs it: the embedded store answers its own upload URLs, and
   * refuses every one whose row is gone.
   */
  async beginErasureWatch(): Promise<void> {
    if (this.store.kind !== 's3') return;
    await this.watches.extend(UPLOAD_PREFIX, new Date(Date.now() + this.ttlSeconds * 1000 + this.latePutGraceMs));
  }

  onApplicationBootstrap() {
    this.wake();
  }

  async onApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Sweeps now (after an erase or a refusal, at start); a pass under way is followed by another. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
    this.running = this.sweep().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** An upload URL was issued that expires at `expiresAt`: the sweep passes when it falls due, unless it passes earlier. */
  issued(expiresAt: Date): void {
    this.schedule(expiresAt.getTime() + this.registrationGraceMs - Date.now());
  }

  /** An upload was refused: a bucket's URL may still write until it expires, and what it writes must go. */
  discarded(): void {
    if (this.store.kind === 's3') this.schedule(this.intervalMs);
  }

  /**
   * One pass (see the class). Ends the erasure watch if its deadline had
   * passed before the pass began (so the last pass comes after it), and
   * schedules the next. Answers how many objects went.
   */
  async sweep(): Promise<number> {
    const began = Date.now();
    let removed = 0;
    let nextInMs = this.intervalMs;
    try {
      const taken = await this.uploads.discardUnregistered(new Date(began - this.registrationGraceMs));
      const settledBefore = new Date(began - this.latePutGraceMs);
      removed = await this.store.removeChosen(UPLOAD_PREFIX, async (keys) => {
        const standing = await this.uploads.standingOf(keys);
        return keys.filter((key) => {
          const upload = standing.get(key);
          return !upload || upload.discarded || upload.expiresAt <= settledBefore;
        });
      });
      const settled = await this.uploads.removeExpiredBefore(settledBefore);
      if (taken.length > 0 || removed > 0 || settled > 0) {
        this.logger.info(`Upload sweep: ${taken.length} upload(s) not registered in time, ${removed} object(s) removed, ${settled} upload(s) settled`);
      }
      const watching = (await this.watches.until(UPLOAD_PREFIX)) !== undefined && !(await this.watches.endBy(UPLOAD_PREFIX, new Date(began)));
      nextInMs = await this.nextPassInMs(watching);
    } catch (error) {
      // The store or the database did not answer: tried again shortly.
      this.logger.warn(`Could not sweep the uploads: ${(error as Error).message}`);
    } finally {
      if (!this.stopped) this.schedule(nextInMs);
    }
    return removed;
  }

  private async nextPassInMs(watching: boolean): Promise<number> {
    const { openExpiry, anyExpiry, discarded } = await this.uploads.timetable();
    // The embedded store refuses every PUT to a discarded upload's URL itself: only a bucket's needs watching.
    if (watching || (discarded && this.store.kind === 's3')) return this.intervalMs;
    const now = Date.now();
    const dueTimes = [openExpiry && openExpiry.getTime() + this.registrationGraceMs, anyExpiry && anyExpiry.getTime() + this.latePutGraceMs].filter(
      (time): time is number => time !== undefined,
    );
    // Just after it falls due, so the pass finds it due.
    return Math.min(LONGEST_SLEEP_MS, ...dueTimes.map((time) => Math.max(this.intervalMs / 10, time - now + 50)));
  }

  /** The next pass in `inMs`, unless one is due sooner already. */
  private schedule(inMs: number): void {
    if (this.stopped) return;
    const due = Date.now() + Math.max(0, inMs);
    if (this.timer && this.due <= due) return;
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => this.wake(), due - Date.now());
    // A sweep's timer alone does not keep the process alive.
    this.timer.unref?.();
  }
}
