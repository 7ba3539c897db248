import { Injectable } from '@nestjs/common';
import type { CreateTarget, RpcRequest } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { asc, eq } from 'drizzle-orm';
import { InjectPlannerDb } from '../database.js';
import { targets, type TargetRow } from '../schema/targets.table.js';

@Injectable()
export class TargetsRepository {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  list(): Promise<TargetRow[]> {
    return this.db.select().from(targets).orderBy(asc(targets.createdAt), asc(targets.id));
  }

  /** A new target from the create body's fields as they are (those it leaves out keep their defaults). */
  async create(values: RpcRequest<typeof CreateTarget>): Promise<TargetRow> {
    const [row] = await this.db.insert(targets).values(values).returning();
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
