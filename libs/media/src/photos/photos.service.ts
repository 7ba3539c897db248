import { Inject, Injectable } from '@nestjs/common';
import { PHOTO_MAX_BYTES, type Photo, type PhotoLocation, type PhotoContentType } from '@vault/contracts';
import { RpcFailure } from '@vault/transport';
import { randomUUID } from 'node:crypto';
import type { PhotoRow } from '../schema/photos.table.js';
import { OBJECT_STORE, ObjectStoreError, photoKey, type ObjectStore } from '../storage/object.store.js';
import { asRpcFailure } from '../storage/store-failure.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { IMAGE_HEAD_BYTES, imageTypeOf } from './image-type.js';
import { PhotosRepository } from './photos.repository.js';

export const NOT_AN_IMAGE = 'The file is not an image (jpeg, png, gif or webp)';
export const TOO_LARGE = 'The photo is larger than 10 MB';
const NOT_ISSUED = 'This upload URL was not issued by the vault, or its photo is already registered';

/** Photos: registered from an issued upload, listed, located for the gateway, deleted. */
@Injectable()
export class PhotosService {
  constructor(
    private readonly photos: PhotosRepository,
    private readonly uploads: UploadsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  /**
   * Turns an upload into a photo, or refuses it and deletes what was
   * uploaded. The object is checked by its size and first bytes, and it is
   * the version that was checked that becomes the photo.
   */
  async register(photoURL: string): Promise<Photo> {
    try {
      const key = await this.store.keyOfUploadUrl(photoURL);
      if (!key) throw RpcFailure.badRequest('photoURL: is not an upload URL issued by this vault');
      if (!(await this.uploads.find(key))) throw RpcFailure.notFound(NOT_ISSUED);
      const stat = await this.store.stat(key);
      if (!stat) throw RpcFailure.notFound('Nothing was uploaded to this URL');
      // From here on the upload is this call's alone; whatever happens, it cannot be registered twice.
      if (!(await this.uploads.claim(key))) throw RpcFailure.notFound(NOT_ISSUED);
      const contentType = await this.checked(key, stat.size, stat.version);
      const id = randomUUID();
      await this.moveChecked(key, photoKey(id), stat.version);
      try {
        return toPhoto(await this.photos.insert({ id, objectKey: photoKey(id), contentType, size: stat.size }));
      } catch (error) {
        await this.store.remove(photoKey(id)).catch(() => undefined);
        throw error;
      }
    } catch (error) {
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

  /** The image type of an upload, or a refusal after deleting it. */
  private async checked(key: string, size: number, version?: string): Promise<PhotoContentType> {
    if (size > PHOTO_MAX_BYTES) return this.refuse(key, new RpcFailure(413, TOO_LARGE));
    const type = size > 0 ? imageTypeOf(await this.store.readHead(key, IMAGE_HEAD_BYTES, version).catch(this.changed(key))) : undefined;
    if (!type) return this.refuse(key, new RpcFailure(415, NOT_AN_IMAGE));
    return type;
  }

  private async moveChecked(from: string, to: string, version?: string): Promise<void> {
    await this.store.move(from, to, version).catch(this.changed(from));
  }

  /** A presigned URL can be PUT to again until it expires: a file swapped after the check is refused too. */
  private changed(key: string) {
    return async (error: unknown): Promise<never> => {
      if (error instanceof ObjectStoreError && error.reason === 'changed') {
        return this.refuse(key, new RpcFailure(409, 'The upload changed while it was being checked. Upload it again.'));
      }
      throw error;
    };
  }

  private async refuse(key: string, failure: RpcFailure): Promise<never> {
    await this.store.remove(key);
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
