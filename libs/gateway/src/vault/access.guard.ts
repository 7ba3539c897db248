import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '@vault/platform';
import { AccessCheck, type AccessRule, type AuthenticatedRequest } from './access-check.js';
import { OWNER_ONLY, SURVIVES_DESTRUCTION } from './route-flags.js';

/**
 * The access check (access-check.ts) on every route of the gateway's
 * controllers, by the marks on its handler and controller (@Public,
 * @OwnerOnly, @SurvivesDestruction), read once per handler.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly rules = new WeakMap<object, AccessRule>();

  constructor(
    private readonly reflector: Reflector,
    private readonly check: AccessCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Service handlers hosted in the same process are reached only through the gateway's routes.
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const rule = this.ruleOf(context);
    // The kubelet's probes answer whatever state the vault is in.
    await this.check.check(request, request.url.startsWith('/health/') ? { ...rule, survivesDestruction: true } : rule);
    return true;
  }

  private ruleOf(context: ExecutionContext): AccessRule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      const marked = (key: string) => this.reflector.getAllAndOverride<boolean>(key, [handler, context.getClass()]) === true;
      rule = { public: marked(IS_PUBLIC), ownerOnly: marked(OWNER_ONLY), survivesDestruction: marked(SURVIVES_DESTRUCTION) };
      this.rules.set(handler, rule);
    }
    return rule;
  }
}
