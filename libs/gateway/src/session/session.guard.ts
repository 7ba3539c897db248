import { Inject, Injectable, ServiceUnavailableException, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { readSessionId } from './session-cookie.js';
import { IS_PUBLIC } from '@vault/platform';
import { SESSION_STORE, type SessionData, type SessionStore } from './session.store.js';

export interface AuthenticatedRequest extends FastifyRequest {
  session?: { id: string; data: SessionData };
}

/** Every route needs the owner's live session unless it is marked @Public. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Service handlers hosted in the same process are reached only through the gateway's routes.
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const id = readSessionId(request);
    if (!id) throw new UnauthorizedException('Unauthorized');
    let data: SessionData | undefined;
    try {
      data = await this.sessions.get(id);
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
    if (!data) throw new UnauthorizedException('Unauthorized');
    request.session = { id, data };
    return true;
  }
}
