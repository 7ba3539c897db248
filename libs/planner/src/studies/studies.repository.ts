import { Injectable } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { and, asc, desc, eq } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { studies, type StudyRow } from '../schema/studies.table.js';

@Injectable()
export class StudiesRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  active(): Promise<StudyRow[]> {
    return this.db.select().from(studies).where(eq(studies.completed, false)).orderBy(asc(studies.createdAt), asc(studies.id));
  }

  completed(): Promise<StudyRow[]> {
    return this.db.select().from(studies).where(eq(studies.completed, true)).orderBy(desc(studies.completedAt), desc(studies.createdAt));
  }

  async create(values: { subject: string; endGoal: string }): Promise<StudyRow> {
    const [row] = await this.db.insert(studies).values(values).returning();
    return row;
  }

  /** Completes once; completing again leaves the first completion date as it was. */
  async complete(id: string): Promise<StudyRow | undefined> {
    const [row] = await this.db
      .update(studies)
      .set({ completed: true, completedAt: new Date() })
      .where(and(eq(studies.id, id), eq(studies.completed, false)))
      .returning();
    if (row) return row;
    const [existing] = await this.db.select().from(studies).where(eq(studies.id, id));
    return existing;
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.delete(studies).where(eq(studies.id, id)).returning({ id: studies.id })).length > 0;
  }
}
