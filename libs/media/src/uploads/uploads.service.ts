import { Inject, Injectable } from '@nestjs/common';
import { UPLOAD_URL_TTL_SECONDS, type UploadParameters } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { MEDIA_OPTIONS, type MediaOptions } from '../media.options.js';
import { OBJECT_STORE, uploadKey, type ObjectStore } from '../storage/object.store.js';
import { asRpcFailure } from '../storage/store-failure.js';
import { UploadSweeper } from './upload-sweeper.js';
import { UploadsRepository } from './uploads.repository.js';

@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly sweeper: UploadSweeper,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_OPTIONS) private readonly options: MediaOptions,
  ) {}

  /**
   * A one-time URL for a key the server chose, and the headers to send; the
   * browser PUTs the file straight to it. Its row comes first, so no object
   * can arrive under a key the sweep does not know; an upload not registered
   * in time is removed by the sweep (UploadSweeper).
   */
  async issue(): Promise<UploadParameters> {
    const ttl = this.options.uploadUrlTtlSeconds ?? UPLOAD_URL_TTL_SECONDS;
    const key = uploadKey(randomUUID());
    const expiresAt = new Date(Date.now() + ttl * 1000);
    await this.uploads.issue(key, expiresAt);
    this.sweeper.issued(expiresAt);
    try {
      const signed = await this.store.signUpload(key, ttl);
      return { uploadURL: signed.url, uploadHeaders: signed.headers };
    } catch (error) {
      throw asRpcFailure(error);
    }
  }
}
