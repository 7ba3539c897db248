import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { InjectMediaDb } from '../database.js';
import { uploads, type UploadRow } from '../schema/uploads.table.js';

/** The upload URLs issued and not yet registered. */
@Injectable()
export class UploadsRepository {
  constructor(@InjectMediaDb() private readonly db: Database) {}

  async issue(objectKey: string, expiresAt: Date): Promise<void> {
    await this.db.insert(uploads).values({ objectKey, expiresAt });
  }

  async find(objectKey: string): Promise<UploadRow | undefined> {
    const [row] = await this.db.select().from(uploads).where(eq(uploads.objectKey, objectKey));
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

  /** Takes an upload for registration; only one caller ever gets it. */
  async claim(objectKey: string): Promise<UploadRow | undefined> {
    const [row] = await this.db.delete(uploads).where(eq(uploads.objectKey, objectKey)).returning();
    return row;
  }

  /** Forgets uploads issued before `before`; returns their keys, whose objects are left over. */
  async removeIssuedBefore(before: Date): Promise<string[]> {
    const rows = await this.db.delete(uploads).where(lt(uploads.createdAt, before)).returning({ objectKey: uploads.objectKey });
    return rows.map((row) => row.objectKey);
  }

  async removeAll(): Promise<number> {
    return (await this.db.delete(uploads).returning({ objectKey: uploads.objectKey })).length;
  }
}
