import { ForbiddenException, Inject, Injectable, ServiceUnavailableException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AccessRecorder } from '../audit/access-recorder.js';
import { Clock } from '../session/clock.js';
import type { AuthenticatedRequest } from '../vault/access-check.js';
import { SESSION_STORE, type SessionData, type SessionStore } from '../session/session.store.js';

/** How long a full authentication (sign-in or re-authentication) lets the owner take a drastic action. */
export const REAUTHENTICATION_WINDOW_MS = 5 * 60_000;

export const REAUTHENTICATION_REQUIRED =
  'Re-authentication required: the last sign-in was more than 5 minutes ago. Enter your password (and your second factor) again.';

/**
 * The drastic actions (global access on, self-destruct, export, second-factor
 * changes) need a full authentication within the last five minutes, so a
 * session left open is not enough. The sign-in records its time in the
 * session; a re-authentication renews it.
 */
@Injectable()
export class RecentAuthentication {
  constructor(
    private readonly clock: Clock,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly access: AccessRecorder,
  ) {}

  /** The time to record for a full authentication happening now. */
  now(): number {
    return this.clock.now();
  }

  isRecent(session: SessionData): boolean {
    return this.clock.now() - (session.authenticatedAt ?? session.signedInAt) <= REAUTHENTICATION_WINDOW_MS;
  }

  /** Refuses (403, recorded) unless the request's session authenticated fully within the window. */
  require(request: AuthenticatedRequest): void {
    if (request.session && this.isRecent(request.session.data)) return;
    this.access.record(request, 'reauthentication_required', false);
    throw new ForbiddenException(REAUTHENTICATION_REQUIRED);
  }

  /** Renews the window of the request's session (a re-authentication succeeded), and forgets any WebAuthn challenge. */
  renew(request: AuthenticatedRequest): Promise<void> {
    return this.save(request, { authenticatedAt: this.clock.now(), challenge: undefined });
  }

  /** Keeps a WebAuthn challenge in the session until the browser answers it. */
  keepChallenge(request: AuthenticatedRequest, challenge: string | undefined): Promise<void> {
    return this.save(request, { challenge });
  }

  private async save(request: AuthenticatedRequest, change: Partial<SessionData>): Promise<void> {
    const session = request.session!;
    const data: SessionData = { ...session.data, ...change };
    try {
      await this.sessions.update(session.id, data);
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
    session.data = data;
  }
}

/** For a route that changes nothing unless the session authenticated fully within the last five minutes. */
@Injectable()
export class RecentAuthenticationGuard implements CanActivate {
  constructor(private readonly recent: RecentAuthentication) {}

  canActivate(context: ExecutionContext): boolean {
    this.recent.require(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }
}
