import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { asc, eq } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { weeklyTemplates, type WeeklyTemplateRow } from '../schema/weekly-templates.table.js';

@Injectable()
export class WeeklyTemplatesRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  list(): Promise<WeeklyTemplateRow[]> {
    return this.db.select().from(weeklyTemplates).orderBy(asc(weeklyTemplates.dayOfWeek), asc(weeklyTemplates.time), asc(weeklyTemplates.createdAt));
  }

  listForDay(dayOfWeek: number): Promise<WeeklyTemplateRow[]> {
    return this.db
      .select()
      .from(weeklyTemplates)
      .where(eq(weeklyTemplates.dayOfWeek, dayOfWeek))
      .orderBy(asc(weeklyTemplates.time), asc(weeklyTemplates.createdAt));
  }

  async create(values: { title: string; description?: string; time: string; dayOfWeek: number; isRepeating: boolean }) {
    const [row] = await this.db
      .insert(weeklyTemplates)
      .values({ ...values, description: values.description ?? null })
      .returning();
    return row;
  }

  /** Replaces a template's fields; undefined when there is no such template. */
  async update(
    id: string,
    values: { title: string; description?: string; time: string; dayOfWeek: number; isRepeating: boolean },
  ): Promise<WeeklyTemplateRow | undefined> {
    const [row] = await this.db
      .update(weeklyTemplates)
      .set({ ...values, description: values.description ?? null })
      .where(eq(weeklyTemplates.id, id))
      .returning();
    return row;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.delete(weeklyTemplates).where(eq(weeklyTemplates.id, id)).returning({ id: weeklyTemplates.id })).length > 0;
  }
}
