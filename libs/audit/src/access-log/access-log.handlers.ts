import { Controller } from '@nestjs/common';
import { ACCESS_LOG_PAGE_DEFAULT, AccessAttempted, ListAccessLogs, type AccessAttempt, type AccessLog, type RpcRequest } from '@vault/contracts';
import { Handles, OnEvent, type EventEnvelope } from '@vault/transport';
import { AccessLogRepository } from './access-log.repository.js';

/** The access log: written from the gateway's events, read by the logs screen. */
@Controller()
export class AccessLogHandlers {
  constructor(private readonly log: AccessLogRepository) {}

  /** An attempt from before the last erase is dropped (AccessLogRepository.recordUnlessErased). */
  @OnEvent(AccessAttempted)
  async record(attempt: AccessAttempt, event: EventEnvelope) {
    await this.log.recordUnlessErased({
      id: event.id,
      ipAddress: attempt.ipAddress,
      userAgent: attempt.userAgent ?? null,
      action: attempt.action,
      success: attempt.success,
      detail: attempt.detail ?? null,
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
      ...(row.detail ? { detail: row.detail } : {}),
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
