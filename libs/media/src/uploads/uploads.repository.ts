import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, eq, gt, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { InjectMediaDb } from '../database.js';
import { uploads, type UploadRow } from '../schema/uploads.table.js';

/** The upload URLs issued in the last day, registered or not. */
@Injectable()
export class UploadsRepository {
  constructor(@InjectMediaDb() private readonly db: Database) {}

  async issue(objectKey: string, expiresAt: Date): Promise<void> {
    await this.db.insert(uploads).values({ objectKey, expiresAt });
  }

  /** An upload that can still be registered. */
  async findPending(objectKey: string): Promise<UploadRow | undefined> {
    const [row] = await this.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.registeredAt)));
    return row;
  }

  /**
   * Spends an embedded upload URL: true for the first PUT before its expiry,
   * false for every other. One guarded UPDATE, so two racing PUTs cannot both win.
   */
  async markUploaded(objectKey: string): Promise<boolean> {
    const rows = await this.db
      .update(uploads)
      .set({ uploadedAt: new Date() })
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.uploadedAt), gt(uploads.expiresAt, new Date())))
      .returning({ objectKey: uploads.objectKey });
    return rows.length > 0;
  }

  /**
   * Takes an upload for registration; only one caller ever gets it. The row
   * stays (marked), so the URL is still known to an erase until it expires.
   */
  async claim(objectKey: string): Promise<UploadRow | undefined> {
    const [row] = await this.db
      .update(uploads)
      .set({ registeredAt: new Date() })
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.registeredAt)))
      .returning();
    return row;
  }

  /**
   * Whether an upload is still on record: false once an erase removed it. A
   * registration or an embedded PUT that finishes after an erase asks this
   * last, and undoes itself when the answer is no.
   */
  async stillRecorded(objectKey: string, state: 'uploaded' | 'claimed'): Promise<boolean> {
    const column = state === 'uploaded' ? uploads.uploadedAt : uploads.registeredAt;
    const rows = await this.db
      .select({ objectKey: uploads.objectKey })
      .from(uploads)
      .where(and(eq(uploads.objectKey, objectKey), isNotNull(column)));
    return rows.length > 0;
  }

  /** Forgets uploads issued before `before`; returns their keys, whose objects are left over. */
  async removeIssuedBefore(before: Date): Promise<string[]> {
    const rows = await this.db.delete(uploads).where(lt(uploads.createdAt, before)).returning({ objectKey: uploads.objectKey });
    return rows.map((row) => row.objectKey);
  }

  /** Which of these keys have a row: an upload of this vault, pending or registered. */
  async recordedAmong(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.select({ objectKey: uploads.objectKey }).from(uploads).where(inArray(uploads.objectKey, keys));
    return new Set(rows.map((row) => row.objectKey));
  }

  async removeAll(): Promise<number> {
    return (await this.db.delete(uploads).returning({ objectKey: uploads.objectKey })).length;
  }
}
