import { Inject, Injectable } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { PhotosRepository } from './photos/photos.repository.js';
import { OBJECT_STORE, PHOTO_PREFIX, UPLOAD_PREFIX, type ObjectStore } from './storage/object.store.js';
import { UploadSweeper } from './uploads/upload-sweeper.js';
import { UploadsRepository } from './uploads/uploads.repository.js';

export interface ErasedMedia {
  photos: number;
  uploads: number;
  objects: number;
}

/**
 * Self-destruct, media-svc's part: every photo row, every upload, every
 * object under the prefixes it writes and every half-written file; both the RPC and the kept
 * `vault.destroyed` event come here. Objects go first and by prefix, not by
 * row, so a retry after a failure still finds whatever is left; and once
 * more after the rows, for what an upload or a registration under way wrote
 * in between (each of those checks its row last and undoes itself when it is
 * gone). The upload URLs issued before stay usable at a bucket until they
 * expire: `UploadSweeper` removes what they bring in until then.
 */
@Injectable()
export class MediaEraser {
  private readonly logger = contextLogger(MediaEraser.name);

  constructor(
    private readonly photos: PhotosRepository,
    private readonly uploads: UploadsRepository,
    private readonly sweeper: UploadSweeper,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async eraseEverything(): Promise<ErasedMedia> {
    await this.sweeper.beginErasureWatch();
    let objects = await this.removeObjects();
    const uploads = await this.uploads.removeAll();
    const photos = await this.photos.removeAll();
    objects += await this.removeObjects();
    this.sweeper.wake();
    const erased = { photos, uploads, objects };
    this.logger.info(`Erased ${erased.photos} photo(s), ${erased.uploads} upload(s) and ${erased.objects} object(s)`);
    return erased;
  }

  /** Every object, and whatever is still being written (the embedded store's half-written uploads). */
  private async removeObjects(): Promise<number> {
    let removed = await this.store.removeUnfinished();
    for (const prefix of [UPLOAD_PREFIX, PHOTO_PREFIX]) removed += await this.store.removeAll(prefix);
    return removed;
  }
}
