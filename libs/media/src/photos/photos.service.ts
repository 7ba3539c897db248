import { Inject, Injectable } from '@nestjs/common';
import { PHOTO_MAX_BYTES, type Photo, type PhotoLocation, type PhotoContentType } from '@vault/contracts';
import { RpcFailure } from '@vault/transport';
import { randomUUID } from 'node:crypto';
import type { PhotoRow } from '../schema/photos.table.js';
import { OBJECT_STORE, ObjectStoreError, photoKey, type ObjectStore } from '../storage/object.store.js';
import { asRpcFailure } from '../storage/store-failure.js';
import { UploadSweeper } from '../uploads/upload-sweeper.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { isOnlyAnImage } from './image-check.js';
import { IMAGE_HEAD_BYTES, imageTypeOf } from './image-type.js';
import { ownLocationStripped } from './location/strip-location.js';
import { PhotoBuffer } from './photo-buffer.js';
import { PhotosRepository } from './photos.repository.js';

export const NOT_AN_IMAGE = 'The file is not an image (jpeg, png, gif or webp)';
export const TOO_LARGE = 'The photo is larger than 10 MB';
const NOT_ISSUED = 'This upload URL was not issued by the vault, or its photo is already registered';
const ERASED = 'The vault was erased while the photo was being registered';

/** Photos: registered from an issued upload, listed, located for the gateway, deleted. */
@Injectable()
export class PhotosService {
  constructor(
    private readonly photos: PhotosRepository,
    private readonly uploads: UploadsRepository,
    private readonly sweeper: UploadSweeper,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly buffer: PhotoBuffer,
  ) {}

  /**
   * Turns an upload into a photo, or refuses it. The whole file is read and
   * decoded to prove it is an image and nothing else; its location data goes
   * unless the owner asked to keep it; and it is exactly those checked bytes
   * that become the photo. Either way the upload's bytes go: a registered
   * one's URL stays spent (a bucket keeps an empty tombstone under it), a
   * refused one is removed from the store at once and discarded, so that
   * whatever its URL still brings goes too (UploadSweeper).
   */
  async register(photoURL: string, keepLocation = false): Promise<Photo> {
    const key = await this.store.keyOfUploadUrl(photoURL).catch((error: unknown) => {
      throw asRpcFailure(error);
    });
    if (!key) throw RpcFailure.badRequest('photoURL: is not an upload URL issued by this vault');
    return this.registerUpload(key, { keepLocation });
  }

  /**
   * A photo of another app's journal, written by the gateway to a key it
   * reserved (ReservePhotoImport): kept as an upload is, its location data
   * removed, dated as the entry that held it.
   */
  registerImported(key: string, createdAt: Date): Promise<Photo> {
    return this.registerUpload(key, { keepLocation: false, createdAt });
  }

  private async registerUpload(key: string, { keepLocation, createdAt }: { keepLocation: boolean; createdAt?: Date }): Promise<Photo> {
    try {
      if (!(await this.uploads.findPending(key))) throw RpcFailure.notFound(NOT_ISSUED);
      const stat = await this.store.stat(key);
      if (!stat) throw RpcFailure.notFound('Nothing was uploaded to this URL');
      // From here on the upload is this call's alone; whatever happens, it cannot be registered twice.
      if (!(await this.uploads.claim(key))) throw RpcFailure.notFound(NOT_ISSUED);
      const id = randomUUID();
      const { size, contentType } = await this.buffer.lend(async (into) => {
        const { bytes, contentType } = await this.checked(key, stat.size, stat.version, into);
        // The bytes were read for this alone: their location is taken out in them, not in a copy.
        const kept = keepLocation ? bytes : ownLocationStripped(bytes, contentType);
        await this.store.writePhoto(photoKey(id), kept, contentType);
        return { size: kept.length, contentType };
      });
      await this.store.retireUpload(key);
      let row: PhotoRow;
      try {
        row = await this.photos.insert({ id, objectKey: photoKey(id), contentType, size, createdAt });
      } catch (error) {
        await this.store.remove(photoKey(id)).catch(() => undefined);
        throw error;
      }
      await this.undoIfErased(key, row);
      return toPhoto(row);
    } catch (error) {
      // The file store's half-written photo went with an erase that ran meanwhile.
      if (error instanceof ObjectStoreError && error.reason === 'interrupted') throw new RpcFailure(410, ERASED);
      throw asRpcFailure(error);
    }
  }

  async list(page: { limit?: number; offset?: number }): Promise<Photo[]> {
    return (await this.photos.list(page)).map(toPhoto);
  }

  /** Where the gateway reads the bytes; only registered photos have one. */
  async locate(id: string): Promise<PhotoLocation> {
    const row = await this.photos.find(id);
    if (!row) throw RpcFailure.notFound('Photo not found');
    return { id: row.id, contentType: row.contentType as PhotoContentType, size: row.size, source: await this.store.locate(row.objectKey) };
  }

  /** The object goes first: should the store fail, the row remains and the delete can be retried. */
  async remove(id: string): Promise<{ id: string }> {
    const row = await this.photos.find(id);
    if (!row) throw RpcFailure.notFound('Photo not found');
    try {
      await this.store.remove(row.objectKey);
    } catch (error) {
      throw asRpcFailure(error);
    }
    await this.photos.remove(id);
    return { id };
  }

  /** The upload's bytes (read `into` the photo buffer) and image type, or a refusal after removing it. */
  private async checked(key: string, size: number, version: string | undefined, into: Buffer): Promise<{ bytes: Buffer; contentType: PhotoContentType }> {
    if (size > PHOTO_MAX_BYTES) return this.refuse(key, new RpcFailure(413, TOO_LARGE));
    if (size === 0) return this.refuse(key, new RpcFailure(415, NOT_AN_IMAGE));
    // The size seen was that of the version read (S3 reads it on that condition); a file store's upload never changes.
    const bytes = await this.store.read(key, { version, into }).catch(this.refusedRead(key));
    const contentType = imageTypeOf(bytes.subarray(0, IMAGE_HEAD_BYTES));
    if (!contentType || !(await isOnlyAnImage(bytes, contentType))) return this.refuse(key, new RpcFailure(415, NOT_AN_IMAGE));
    return { bytes, contentType };
  }

  /**
   * An erase that ran while this registration did removed the upload's row
   * (see MediaEraser): the photo it wrote would outlive the vault, so it
   * goes. When the row is still there, the erase has yet to remove rows and
   * objects, and takes this photo with the rest.
   */
  private async undoIfErased(key: string, row: PhotoRow): Promise<void> {
    if (await this.uploads.stillRecorded(key, 'claimed')) return;
    await this.store.remove(row.objectKey);
    await this.photos.remove(row.id);
    throw new RpcFailure(410, ERASED);
  }

  /**
   * A presigned URL issued before conditional uploads could be PUT to again:
   * a file swapped after the check is refused too, and one grown past a
   * photo's size as well.
   */
  private refusedRead(key: string) {
    return async (error: unknown): Promise<never> => {
      if (error instanceof ObjectStoreError && error.reason === 'changed') {
        return this.refuse(key, new RpcFailure(409, 'The upload changed while it was being checked. Upload it again.'));
      }
      if (error instanceof ObjectStoreError && error.reason === 'too-large') return this.refuse(key, new RpcFailure(413, TOO_LARGE));
      throw error;
    };
  }

  /**
   * Nothing refused is kept: the upload is discarded (it can never be
   * registered, and the sweep removes whatever its URL still brings) and
   * its object removed now.
   */
  private async refuse(key: string, failure: RpcFailure): Promise<never> {
    await this.uploads.discard(key);
    await this.store.remove(key);
    this.sweeper.discarded();
    throw failure;
  }
}

export function toPhoto(row: PhotoRow): Photo {
  return {
    id: row.id,
    objectPath: `/objects/${row.objectKey}`,
    createdAt: row.createdAt.toISOString(),
    contentType: row.contentType as PhotoContentType,
    size: row.size,
  };
}
