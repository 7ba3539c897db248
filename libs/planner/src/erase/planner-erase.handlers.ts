import { Controller } from '@nestjs/common';
import { ErasePlanner, VaultDestroyed } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { Handles, OnEvent } from '@vault/transport';
import { InjectPlannerDb } from '../database.js';
import { PLANNER_TABLES } from '../schema/planner-tables.js';

/** Self-destruct: every row planner-svc owns, in one transaction. Asked directly, or by the kept event. */
@Controller()
export class PlannerEraseHandlers {
  constructor(@InjectPlannerDb() private readonly db: Database) {}

  @Handles(ErasePlanner)
  async erase() {
    await this.eraseAll();
    return { service: 'planner', erased: true as const };
  }

  @OnEvent(VaultDestroyed)
  async onDestroyed() {
    await this.eraseAll();
  }

  private async eraseAll() {
    await this.db.transaction(async (tx) => {
      for (const table of PLANNER_TABLES) await tx.delete(table);
    });
  }
}
