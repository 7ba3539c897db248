import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { desc, eq } from 'drizzle-orm';
import { InjectMediaDb } from '../database.js';
import { photos, type PhotoRow } from '../schema/photos.table.js';

@Injectable()
export class PhotosRepository {
  constructor(@InjectMediaDb() private readonly db: Database) {}

  async insert(values: { id: string; objectKey: string; contentType: string; size: number; createdAt?: Date }): Promise<PhotoRow> {
    const [row] = await this.db.insert(photos).values(values).returning();
    return row;
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  list(page: { limit?: number; offset?: number }): Promise<PhotoRow[]> {
    const query = this.db.select().from(photos).orderBy(desc(photos.createdAt), desc(photos.id)).$dynamic();
    if (page.limit !== undefined) query.limit(page.limit);
    if (page.offset !== undefined) query.offset(page.offset);
    return query;
  }

  async find(id: string): Promise<PhotoRow | undefined> {
    const [row] = await this.db.select().from(photos).where(eq(photos.id, id));
    return row;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.delete(photos).where(eq(photos.id, id)).returning({ id: photos.id })).length > 0;
  }

  async removeAll(): Promise<number> {
    return (await this.db.delete(photos).returning({ id: photos.id })).length;
  }
}
