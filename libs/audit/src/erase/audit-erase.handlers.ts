import { Controller } from '@nestjs/common';
import { AccessAttempted, EraseAudit, VaultDestroyed } from '@vault/contracts';
import { EventBus, Handles, OnEvent } from '@vault/transport';
import { AccessLogRepository } from '../access-log/access-log.repository.js';

/** Self-destruct: the access log, and the access events still kept by the broker (they hold addresses). */
@Controller()
export class AuditEraseHandlers {
  constructor(
    private readonly log: AccessLogRepository,
    private readonly events: EventBus,
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

  /**
   * The erasure instant is stored with the log's deletion first: from then
   * on an older event is dropped whichever replica receives it, even one the
   * broker delivers again after a crash before the purge.
   */
  private async eraseAll(at: Date) {
    await this.log.eraseAll(at);
    await this.events.purge(AccessAttempted);
  }
}
