import { Controller } from '@nestjs/common';
import { AccessAttempted, EraseAudit, VaultDestroyed } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { EventBus, Handles, OnEvent } from '@vault/transport';
import { InjectAuditDb } from '../database.js';
import { accessLog } from '../schema/access-log.table.js';
import { ErasureClock } from './erasure-clock.js';

/** Self-destruct: the access log, and the access events still kept by the broker (they hold addresses). */
@Controller()
export class AuditEraseHandlers {
  constructor(
    @InjectAuditDb() private readonly db: Database,
    private readonly events: EventBus,
    private readonly clock: ErasureClock,
  ) {}

  @Handles(EraseAudit)
  async erase() {
    await this.eraseAll(new Date());
    return { service: 'audit', erased: true as const };
  }

  @OnEvent(VaultDestroyed)
  async onDestroyed(event: { at: string }) {
    await this.eraseAll(new Date(event.at));
  }

  private async eraseAll(at: Date) {
    this.clock.markErased(at);
    await this.events.purge(AccessAttempted);
    await this.db.delete(accessLog);
  }
}
