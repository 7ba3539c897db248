import { HttpException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { SURVIVES_DESTRUCTION } from './route-flags.js';
import { VaultStateCache } from './vault-state.cache.js';

export const VAULT_DESTROYED = 'This vault has been destroyed.';

/** After self-destruct every call is refused, except the status and the owner's name. Runs before the session guard. */
@Injectable()
export class DestroyedGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly state: VaultStateCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.url.startsWith('/health/')) return true;
    if (this.reflector.getAllAndOverride<boolean>(SURVIVES_DESTRUCTION, [context.getHandler(), context.getClass()])) return true;
    if ((await this.state.get()).destroyed) throw new HttpException(VAULT_DESTROYED, 410);
    return true;
  }
}
