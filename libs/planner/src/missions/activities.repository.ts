import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { asc, eq } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { activities, type ActivityRow } from '../schema/activities.table.js';

@Injectable()
export class ActivitiesRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  list(): Promise<ActivityRow[]> {
    return this.db.select().from(activities).orderBy(asc(activities.createdAt), asc(activities.id));
  }

  /** Undefined when a mission with that title already exists. */
  async create(values: { title: string; description?: string }): Promise<ActivityRow | undefined> {
    const [row] = await this.db
      .insert(activities)
      .values({ title: values.title, description: values.description ?? null })
      .onConflictDoNothing({ target: activities.title })
      .returning();
    return row;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.delete(activities).where(eq(activities.id, id)).returning({ id: activities.id })).length > 0;
  }
}
