import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Owner } from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { readSessionId, setSessionCookie } from '../session/session-cookie.js';
import { SESSION_STORE, type SessionStore } from '../session/session.store.js';
import { RecentAuthentication } from './recent-authentication.js';

/**
 * Issues the owner's session once every step of the sign-in passed: the old
 * session (if any) ends and a new id is issued, so a planted id is useless.
 * The sign-in is a full authentication, so its time is recorded for the
 * drastic actions' five-minute window.
 */
@Injectable()
export class SessionIssuer {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly recent: RecentAuthentication,
  ) {}

  async issue(request: FastifyRequest, reply: FastifyReply, owner: Owner): Promise<void> {
    try {
      const previous = readSessionId(request);
      if (previous) await this.sessions.destroy(previous);
      const id = await this.sessions.create({ owner, signedInAt: Date.now(), authenticatedAt: this.recent.now() });
      setSessionCookie(request, reply, id, this.options.sessionTtlSeconds);
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
  }
}
