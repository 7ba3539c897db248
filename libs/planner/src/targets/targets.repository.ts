import { Injectable } from '@nestjs/common';
import type { CreateTarget, RpcRequest } from '@vault/contracts';
import { type Database, statementName } from '@vault/persistence';
import { asc, eq, sql } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { targets, type TargetRow } from '../schema/targets.table.js';

@Injectable()
export class TargetsRepository {
  // The dashboard's read and write, prepared once (statementName).
  private readonly listAll;
  private readonly insertOne;

  constructor(@InjectPlannerDb() private readonly db: Database) {
    this.listAll = db.select().from(targets).orderBy(asc(targets.createdAt), asc(targets.id)).prepare(statementName(targets, 'list'));
    this.insertOne = db
      .insert(targets)
      .values({ title: sql.placeholder('title'), description: sql.placeholder('description') })
      .returning()
      .prepare(statementName(targets, 'insert'));
  }

  list(): Promise<TargetRow[]> {
    return this.listAll.execute();
  }

  /** A new target from the create body's fields (no description is null, the column's default); the others keep their defaults. */
  async create(values: RpcRequest<typeof CreateTarget>): Promise<TargetRow> {
    const [row] = await this.insertOne.execute({ title: values.title, description: values.description ?? null });
    return row;
  }

  /** Sets the completion and its date in one statement; undefined when no such target. */
  async setCompleted(id: string, completed: boolean): Promise<TargetRow | undefined> {
    const [row] = await this.db
      .update(targets)
      .set({ completed, completedAt: completed ? new Date() : null })
      .where(eq(targets.id, id))
      .returning();
    return row;
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db.delete(targets).where(eq(targets.id, id)).returning({ id: targets.id });
    return rows.length > 0;
  }
}
