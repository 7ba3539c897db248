import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, eq, gt, inArray, isNotNull, isNull, lte, min, sql } from 'drizzle-orm';
import { InjectMediaDb } from '../database.js';
import { uploads, type UploadRow } from '../schema/uploads.table.js';

/** What the upload sweep needs to know of the keys it found in the store. */
export interface UploadStanding {
  objectKey: string;
  expiresAt: Date;
  discarded: boolean;
}

/** The upload URLs issued and not yet settled, registered or not. */
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
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.registeredAt), isNull(uploads.discardedAt)));
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
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.uploadedAt), isNull(uploads.discardedAt), gt(uploads.expiresAt, new Date())))
      .returning({ objectKey: uploads.objectKey });
    return rows.length > 0;
  }

  /**
   * Takes an upload for registration; only one caller ever gets it, and
   * never one the sweep discarded (both are one guarded UPDATE). The row
   * stays (marked) until its URL can no longer write.
   */
  async claim(objectKey: string): Promise<UploadRow | undefined> {
    const [row] = await this.db
      .update(uploads)
      .set({ registeredAt: new Date() })
      .where(and(eq(uploads.objectKey, objectKey), isNull(uploads.registeredAt), isNull(uploads.discardedAt)))
      .returning();
    return row;
  }

  /** Marks a refused upload: nothing its key holds is kept, now or later. */
  async discard(objectKey: string): Promise<void> {
    await this.db.update(uploads).set({ discardedAt: new Date() }).where(eq(uploads.objectKey, objectKey));
  }

  /**
   * Takes every upload that expired before `before` without being claimed:
   * from now on none of them can be registered, and whatever their keys
   * hold is removed. Returns their keys.
   */
  async discardUnregistered(before: Date): Promise<string[]> {
    const rows = await this.db
      .update(uploads)
      .set({ discardedAt: new Date() })
      .where(and(isNull(uploads.registeredAt), isNull(uploads.discardedAt), lte(uploads.expiresAt, before)))
      .returning({ objectKey: uploads.objectKey });
    return rows.map((row) => row.objectKey);
  }

  /**
   * Whether an upload is still on record: false once an erase removed it
   * (or, for an embedded PUT, the sweep discarded it). A registration or an
   * embedded PUT that finishes after an erase asks this last, and undoes
   * itself when the answer is no.
   */
  async stillRecorded(objectKey: string, state: 'uploaded' | 'claimed'): Promise<boolean> {
    const column = state === 'uploaded' ? uploads.uploadedAt : uploads.registeredAt;
    const rows = await this.db
      .select({ objectKey: uploads.objectKey })
      .from(uploads)
      .where(and(eq(uploads.objectKey, objectKey), isNotNull(column), state === 'uploaded' ? isNull(uploads.discardedAt) : undefined));
    return rows.length > 0;
  }

  /** How each of these keys stands; a key without a row is not in the answer. */
  async standingOf(keys: string[]): Promise<Map<string, UploadStanding>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .select({ objectKey: uploads.objectKey, expiresAt: uploads.expiresAt, discardedAt: uploads.discardedAt })
      .from(uploads)
      .where(inArray(uploads.objectKey, keys));
    return new Map(rows.map((row) => [row.objectKey, { objectKey: row.objectKey, expiresAt: row.expiresAt, discarded: row.discardedAt !== null }]));
  }

  /** Forgets the uploads whose URL expired before `before` (their objects went first); returns how many. */
  async removeExpiredBefore(before: Date): Promise<number> {
    return (await this.db.delete(uploads).where(lte(uploads.expiresAt, before)).returning({ objectKey: uploads.objectKey })).length;
  }

  /**
   * When the sweep has work next: the earliest expiry of an upload still
   * open to registration, the earliest expiry of any, and whether a
   * discarded one is still on record (its URL may still write).
   */
  async timetable(): Promise<{ openExpiry?: Date; anyExpiry?: Date; discarded: boolean }> {
    const [row] = await this.db
      .select({
        openExpiry: sql<Date | null>`min(${uploads.expiresAt}) filter (where ${uploads.registeredAt} is null and ${uploads.discardedAt} is null)`.mapWith(
          uploads.expiresAt,
        ),
        anyExpiry: min(uploads.expiresAt),
        discarded: sql<boolean>`coalesce(bool_or(${uploads.discardedAt} is not null), false)`,
      })
      .from(uploads);
    return { openExpiry: row?.openExpiry ?? undefined, anyExpiry: row?.anyExpiry ?? undefined, discarded: row?.discarded ?? false };
  }

  async removeAll(): Promise<number> {
    return (await this.db.delete(uploads).returning({ objectKey: uploads.objectKey })).length;
  }
}
