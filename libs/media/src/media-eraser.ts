import { Inject, Injectable, Logger } from '@nestjs/common';
import { PhotosRepository } from './photos/photos.repository.js';
import { OBJECT_STORE, PHOTO_PREFIX, UPLOAD_PREFIX, type ObjectStore } from './storage/object.store.js';
import { UploadsRepository } from './uploads/uploads.repository.js';

export interface ErasedMedia {
  photos: number;
  uploads: number;
  objects: number;
}

/**
 * Self-destruct, media-svc's part: every photo row, every pending upload and
 * every object under the prefixes it writes. Objects go first and by prefix,
 * not by row, so a retry after a failure still finds whatever is left.
 */
@Injectable()
export class MediaEraser {
  private readonly logger = new Logger(MediaEraser.name);

  constructor(
    private readonly photos: PhotosRepository,
    private readonly uploads: UploadsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async eraseEverything(): Promise<ErasedMedia> {
    let objects = 0;
    for (const prefix of [UPLOAD_PREFIX, PHOTO_PREFIX]) objects += await this.store.removeAll(prefix);
    const erased = { photos: await this.photos.removeAll(), uploads: await this.uploads.removeAll(), objects };
    this.logger.log(`Erased ${erased.photos} photo(s), ${erased.uploads} pending upload(s) and ${erased.objects} object(s)`);
    return erased;
  }
}
