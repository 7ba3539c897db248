import { Inject, Injectable } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { UPLOAD_URL_TTL_SECONDS, type UploadParameters } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { MEDIA_OPTIONS, type MediaOptions } from '../media.options.js';
import { OBJECT_STORE, UPLOAD_PREFIX, uploadKey, type ObjectStore } from '../storage/object.store.js';
import { asRpcFailure } from '../storage/store-failure.js';
import { UploadsRepository } from './uploads.repository.js';

/** An upload neither registered nor refused within a day is abandoned: its row and object go. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

@Injectable()
export class UploadsService {
  private readonly logger = contextLogger(UploadsService.name);
  private lastSweep = 0;

  constructor(
    private readonly uploads: UploadsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  /** A one-time URL for a key the server chose, and the headers to send; the browser PUTs the file straight to it. */
  async issue(): Promise<UploadParameters> {
    await this.sweepAbandoned();
    const ttl = this.options.uploadUrlTtlSeconds ?? UPLOAD_URL_TTL_SECONDS;
    const key = uploadKey(randomUUID());
    await this.uploads.issue(key, new Date(Date.now() + ttl * 1000));
    try {
      const signed = await this.store.signUpload(key, ttl);
      return { uploadURL: signed.url, uploadHeaders: signed.headers };
    } catch (error) {
      throw asRpcFailure(error);
    }
  }

  /**
   * At most hourly, on the way through: a browser that never registered its
   * upload (closed tab, refused PUT) must not leave the object behind for ever.
   * Objects in `uploads/` older than that go too: a registered upload's
   * tombstone, whose URL expired long before.
   */
  private async sweepAbandoned(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    const before = new Date(Date.now() - ABANDONED_AFTER_MS);
    try {
      const rows = await this.uploads.removeIssuedBefore(before);
      const objects = await this.store.removeOlderThan(UPLOAD_PREFIX, before);
      if (rows.length > 0 || objects > 0) this.logger.info(`Removed ${rows.length} abandoned upload(s) and ${objects} object(s)`);
    } catch (error) {
      this.logger.warn(`Could not remove abandoned uploads: ${(error as Error).message}`);
    }
  }
}
