import { Injectable } from '@nestjs/common';
import { AccessAttempted, type AccessAction } from '@vault/contracts';
import { EventBus } from '@vault/transport';
import type { FastifyRequest } from 'fastify';

/**
 * Turns what happened to a request into an access-log event. Publishing does
 * not wait for audit-svc: the request goes on at once.
 */
@Injectable()
export class AccessRecorder {
  constructor(private readonly events: EventBus) {}

  /** `detail`: the size of what the request carried (an import's), never its content. */
  record(request: FastifyRequest, action: AccessAction, success: boolean, detail?: string) {
    const userAgent = request.headers['user-agent'];
    this.events.publish(AccessAttempted, {
      ipAddress: request.ip.slice(0, 100),
      ...(userAgent ? { userAgent: userAgent.slice(0, 1000) } : {}),
      action,
      success,
      ...(detail ? { detail } : {}),
    });
  }
}
