import { HttpException, Inject, Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { readSessionId } from '../session/session-cookie.js';
import { SESSION_STORE, type SessionData, type SessionStore } from '../session/session.store.js';
import { VaultStateCache } from './vault-state.cache.js';

export const VAULT_DESTROYED = 'This vault has been destroyed.';

export interface AuthenticatedRequest extends FastifyRequest {
  session?: { id: string; data: SessionData };
}

/** What a route lets through: its line's `public`, and the marks of the gateway's own controllers (route-flags.ts). */
export interface AccessRule {
  /** Answered without a session. */
  readonly public: boolean;
  /** Needs the owner's own session even while global access is on. */
  readonly ownerOnly: boolean;
  /** Still answers after self-destruct. */
  readonly survivesDestruction: boolean;
}

/** A route of the API that needs the owner: every route not marked otherwise. */
export const OWNERS_ROUTE: AccessRule = Object.freeze({ public: false, ownerOnly: false, survivesDestruction: false });

/**
 * Who may have a route's answer, for the guard of the gateway's controllers
 * (AccessGuard) and the routes Fastify serves directly (direct-routes.ts)
 * alike. After self-destruct every call is refused (410), except those that
 * survive it; then every route needs the owner's live session, unless it is
 * public, or global access is on and the route is not owner-only.
 */
@Injectable()
export class AccessCheck {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly access: AccessRecorder,
    private readonly vault: VaultStateCache,
  ) {}

  /** Resolves when the request may go on (with its session on `request.session`, when it has one); else throws the refusal. */
  async check(request: AuthenticatedRequest, rule: AccessRule): Promise<void> {
    // A destroyed vault refuses before sessions are even looked at.
    if (!rule.survivesDestruction && (await this.vault.get()).destroyed) throw new HttpException(VAULT_DESTROYED, 410);
    if (rule.public) return;
    const id = readSessionId(request);
    let data: SessionData | undefined;
    try {
      data = id ? await this.sessions.get(id) : undefined;
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
    if (!id || !data) {
      if (!rule.ownerOnly && (await this.vault.get()).globalAccess) return;
      // No session may mean a self-destruct on another replica has just ended them all: a destroyed vault refuses with 410 and logs nothing.
      if ((await this.vault.fresh()).destroyed) throw new HttpException(VAULT_DESTROYED, 410);
      // The web app's "am I signed in?" probe is not an access attempt; every other refusal is logged.
      if (!(request.method === 'GET' && request.url === '/api/user')) this.access.record(request, 'unauthorized', false);
      throw new UnauthorizedException('Unauthorized');
    }
    request.session = { id, data };
  }
}
