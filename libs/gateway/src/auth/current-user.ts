import { Injectable } from '@nestjs/common';
import { GetOwnerProfile, HTTP_ROUTES, type CurrentUser as CurrentUserAnswer } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import type { DirectRoute } from '../http/direct-routes.js';
import type { AuthenticatedRequest } from '../vault/access-check.js';
import { VaultStateCache } from '../vault/vault-state.cache.js';

/** GET /api/user: the owner with a session; under global access, a visitor without one is shown the owner's vault too. */
@Injectable()
export class CurrentUser {
  constructor(
    private readonly vault: VaultStateCache,
    private readonly rpc: RpcClient,
  ) {}

  readonly route: DirectRoute = { name: 'currentUser', line: HTTP_ROUTES.currentUser, answer: (request) => this.of(request) };

  async of(request: AuthenticatedRequest): Promise<CurrentUserAnswer> {
    const { globalAccess } = await this.vault.get();
    if (request.session) return { ...request.session.data.owner, globalAccess, signedIn: true };
    return { ...(await this.rpc.send(GetOwnerProfile, {})), globalAccess, signedIn: false };
  }
}
