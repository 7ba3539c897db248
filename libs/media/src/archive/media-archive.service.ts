import { Inject, Injectable } from '@nestjs/common';
import { ARCHIVE_PAGE_RECORDS, PHOTO_MAX_BYTES, UPLOAD_URL_TTL_SECONDS, fitPage, type PhotoRecord, type PhotoTarget } from '@vault/contracts';
import { archiveRecordOf, integrityViolation, type Database } from '@vault/persistence';
import { RpcFailure } from '@vault/transport';
import { asc, count, gt } from 'drizzle-orm';
import { createHash, randomUUID } from 'node:crypto';
import { InjectMediaDb } from '../database.js';
import { isOnlyAnImage } from '../photos/image-check.js';
import { IMAGE_HEAD_BYTES, imageTypeOf } from '../photos/image-type.js';
import { PhotoBuffer } from '../photos/photo-buffer.js';
import { photos, type PhotoRow } from '../schema/photos.table.js';
import { OBJECT_STORE, ObjectStoreError, PHOTO_PREFIX, photoKey, uploadKey, type ObjectStore } from '../storage/object.store.js';
import { asRpcFailure } from '../storage/store-failure.js';
import { UploadSweeper } from '../uploads/upload-sweeper.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { MEDIA_ARCHIVE_TABLES } from './media-archive.tables.js';

/**
 * media-svc's part of an export (each photo's record; the gateway reads the
 * bytes through LocatePhoto) and of a restore: the gateway writes a photo's bytes to an
 * upload key reserved here, and they become the photo only once their size,
 * SHA-256 and image type are those the archive recorded. Restored bytes are
 * kept exactly as exported (the owner's choice about location data was made
 * at the first upload), but still decoded to prove they are only an image.
 */
@Injectable()
export class MediaArchiveService {
  constructor(
    @InjectMediaDb() private readonly db: Database,
    private readonly uploads: UploadsRepository,
    private readonly sweeper: UploadSweeper,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly buffer: PhotoBuffer,
  ) {}

  async exportPage(after?: string): Promise<{ records: PhotoRecord[]; next?: string }> {
    const query = this.db.select().from(photos).orderBy(asc(photos.id)).limit(ARCHIVE_PAGE_RECORDS).$dynamic();
    const rows = await (after ? query.where(gt(photos.id, after)) : query);
    return fitPage(rows.map(toRecord), rows.length < ARCHIVE_PAGE_RECORDS);
  }

  /** An upload key for one restored photo, recorded like any upload so an erase or the upload sweep finds it. */
  async reserve(): Promise<{ key: string; target: PhotoTarget }> {
    const key = uploadKey(randomUUID());
    const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000);
    await this.uploads.issue(key, expiresAt);
    this.sweeper.issued(expiresAt);
    try {
      return { key, target: await this.store.importTarget(key, UPLOAD_URL_TTL_SECONDS) };
    } catch (error) {
      throw asRpcFailure(error);
    }
  }

  async keep(key: string, record: PhotoRecord, sha256: string): Promise<PhotoRecord> {
    try {
      if (!(await this.uploads.claim(key))) throw RpcFailure.notFound('photos: this restore slot was not reserved, or is already used');
      await this.buffer.lend(async (into) => {
        const bytes = await this.checkedBytes(key, record, sha256, into).catch(async (error: unknown) => {
          // Refused: nothing of it is kept (as a refused registration).
          await this.uploads.discard(key);
          await this.store.remove(key);
          throw error;
        });
        await this.store.retireUpload(key);
        await this.store.writePhoto(photoKey(record.id), bytes, record.contentType);
      });
      try {
        const [row] = await this.db
          .insert(photos)
          .values({ id: record.id, objectKey: photoKey(record.id), contentType: record.contentType, size: record.size, createdAt: new Date(record.createdAt) })
          .returning();
        return toRecord(row);
      } catch (error) {
        const violation = integrityViolation(error);
        if (violation) throw new RpcFailure(422, `photos: ${violation.detail ?? 'a photo contradicts another'}`);
        throw error;
      }
    } catch (error) {
      throw asRpcFailure(error);
    }
  }

  async holdings(): Promise<string[]> {
    const [row] = await this.db.select({ value: count() }).from(photos);
    return Number(row.value) > 0 ? ['photos'] : [];
  }

  /** Every photo a failed restore kept, objects first (a vault restored into held none before). */
  async discardAll(): Promise<void> {
    try {
      await this.store.removeAll(PHOTO_PREFIX);
    } catch (error) {
      throw asRpcFailure(error);
    }
    await this.db.delete(photos);
  }

  private async checkedBytes(key: string, record: PhotoRecord, sha256: string, into: Buffer): Promise<Buffer> {
    const stat = await this.store.stat(key);
    if (!stat) throw RpcFailure.badRequest(`photos/${record.id}: no bytes were written for this photo`);
    if (stat.size !== record.size || stat.size > PHOTO_MAX_BYTES)
      throw RpcFailure.badRequest(`photos/${record.id}: ${stat.size} bytes, but its record says ${record.size}`);
    const bytes = await this.store.read(key, { version: stat.version, into }).catch((error: unknown) => {
      // Grown past what was stat'ed (a photo's largest size): the archive's fault, as a size that does not match.
      if (error instanceof ObjectStoreError && error.reason === 'too-large')
        throw RpcFailure.badRequest(`photos/${record.id}: more bytes than its record says`);
      throw error;
    });
    if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw RpcFailure.badRequest(`photos/${record.id}: the bytes do not match their SHA-256`);
    const type = imageTypeOf(bytes.subarray(0, IMAGE_HEAD_BYTES));
    if (type !== record.contentType || !(await isOnlyAnImage(bytes, type))) throw new RpcFailure(415, `photos/${record.id}: not a ${record.contentType} image`);
    return bytes;
  }
}

function toRecord(row: PhotoRow): PhotoRecord {
  return archiveRecordOf(row, MEDIA_ARCHIVE_TABLES.archived.photos) as PhotoRecord;
}
