import { Controller } from '@nestjs/common';
import { ACCESS_LOG_PAGE_DEFAULT, AccessAttempted, ListAccessLogs, type AccessAttempt, type AccessLog, type RpcRequest } from '@vault/contracts';
import { Handles, OnEvent, type EventEnvelope } from '@vault/transport';
import { ErasureClock } from '../erase/erasure-clock.js';
import { AccessLogRepository } from './access-log.repository.js';

/** The access log: written from the gateway's events, read by the logs screen. */
@Controller()
export class AccessLogHandlers {
  constructor(
    private readonly log: AccessLogRepository,
    private readonly clock: ErasureClock,
  ) {}

  @OnEvent(AccessAttempted)
  async record(attempt: AccessAttempt, event: EventEnvelope) {
    if (this.clock.isBeforeErasure(new Date(event.at))) return;
    await this.log.record({
      id: event.id,
      ipAddress: attempt.ipAddress,
      userAgent: attempt.userAgent ?? null,
      action: attempt.action,
      success: attempt.success,
      createdAt: new Date(event.at),
    });
  }

  @Handles(ListAccessLogs)
  async list(request: RpcRequest<typeof ListAccessLogs>): Promise<AccessLog[]> {
    const rows = await this.log.newestFirst(request.limit ?? ACCESS_LOG_PAGE_DEFAULT, request.offset ?? 0);
    return rows.map((row) => ({
      id: row.id,
      ipAddress: row.ipAddress,
      ...(row.userAgent ? { userAgent: row.userAgent } : {}),
      action: row.action,
      success: row.success,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
