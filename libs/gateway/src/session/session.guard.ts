import { HttpException, Inject, Injectable, ServiceUnavailableException, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { readSessionId } from './session-cookie.js';
import { IS_PUBLIC } from '@vault/platform';
import { AccessRecorder } from '../audit/access-recorder.js';
import { OWNER_ONLY } from '../vault/route-flags.js';
import { VAULT_DESTROYED } from '../vault/destroyed.guard.js';
import { VaultStateCache } from '../vault/vault-state.cache.js';
import { SESSION_STORE, type SessionData, type SessionStore } from './session.store.js';

export interface AuthenticatedRequest extends FastifyRequest {
  session?: { id: string; data: SessionData };
}

/**
 * Every route needs the owner's live session unless it is marked @Public, or
 * global access is on and the route is not @OwnerOnly.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly access: AccessRecorder,
    private readonly vault: VaultStateCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Service handlers hosted in the same process are reached only through the gateway's routes.
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const id = readSessionId(request);
    let data: SessionData | undefined;
    try {
      data = id ? await this.sessions.get(id) : undefined;
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
    if (!id || !data) {
      const ownerOnly = this.reflector.getAllAndOverride<boolean>(OWNER_ONLY, [context.getHandler(), context.getClass()]);
      if (!ownerOnly && (await this.vault.get()).globalAccess) return true;
      // No session may mean a self-destruct on another replica has just ended them all: a destroyed vault refuses with 410 and logs nothing.
      if ((await this.vault.fresh()).destroyed) throw new HttpException(VAULT_DESTROYED, 410);
      // The web app's "am I signed in?" probe is not an access attempt; every other refusal is logged.
      if (!(request.method === 'GET' && request.url === '/api/user')) this.access.record(request, 'unauthorized', false);
      throw new UnauthorizedException('Unauthorized');
    }
    request.session = { id, data };
    return true;
  }
}
