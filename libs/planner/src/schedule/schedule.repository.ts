import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, asc, eq } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { scheduleItems, type ScheduleItemRow } from '../schema/schedule-items.table.js';
import { weeklyTemplates, type WeeklyTemplateRow } from '../schema/weekly-templates.table.js';

@Injectable()
export class ScheduleRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  forDate(date: string): Promise<ScheduleItemRow[]> {
    return this.db.select().from(scheduleItems).where(eq(scheduleItems.date, date)).orderBy(asc(scheduleItems.time), asc(scheduleItems.createdAt));
  }

  /** One item per template and date: a second application (even a concurrent one) adds nothing. */
  async addFromTemplates(date: string, templates: WeeklyTemplateRow[]): Promise<void> {
    if (templates.length === 0) return;
    await this.db
      .insert(scheduleItems)
      .values(templates.map((t) => ({ date, time: t.time, title: t.title, description: t.description, templateId: t.id })))
      .onConflictDoNothing({ target: [scheduleItems.date, scheduleItems.templateId] });
  }

  /**
   * Completes an item; if it came from a one-time template, that template is
   * deleted in the same transaction (a one-time mission ends when it is done).
   */
  complete(id: string): Promise<ScheduleItemRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [item] = await tx
        .update(scheduleItems)
        .set({ completed: true, completedAt: new Date() })
        .where(and(eq(scheduleItems.id, id), eq(scheduleItems.completed, false)))
        .returning();
      if (!item) {
        const [existing] = await tx.select().from(scheduleItems).where(eq(scheduleItems.id, id));
        return existing;
      }
      if (item.templateId) {
        await tx.delete(weeklyTemplates).where(and(eq(weeklyTemplates.id, item.templateId), eq(weeklyTemplates.isRepeating, false)));
      }
      return item;
    });
  }
}
