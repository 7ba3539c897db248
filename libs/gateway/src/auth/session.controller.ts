import { Controller, Get, HttpCode, Inject, Post, Req, Res, ServiceUnavailableException, UseGuards } from '@nestjs/common';
import type { Owner, PasswordVerdict, PendingSignIn } from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@vault/platform';
import { PENDING_SIGN_INS, PENDING_SIGN_IN_TTL_SECONDS, type PendingSignInStore } from '../session/pending-sign-in.store.js';
import { clearSessionCookie, readSessionId, setPendingSignInCookie } from '../session/session-cookie.js';
import { SESSION_STORE, type SessionStore } from '../session/session.store.js';
import { AccessRecorder } from '../audit/access-recorder.js';
import { clearSiteData } from '../http/clear-site-data.js';
import { LoginGuard } from './login.guard.js';
import { SessionIssuer } from './session-issuer.js';

@Controller('api')
export class SessionController {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(PENDING_SIGN_INS) private readonly pending: PendingSignInStore,
    private readonly issuer: SessionIssuer,
    private readonly access: AccessRecorder,
  ) {}

  /**
   * Signs in: the old session (if any) ends and a new id is issued, so a
   * planted id is useless. With a second factor enrolled the password is only
   * the first step: 202, the ways to finish, and a pending sign-in in its own
   * cookie, which is no session (see SecondStepController).
   */
  @Public()
  @UseGuards(LoginGuard)
  @Post('login')
  @HttpCode(200)
  async login(@Req() request: FastifyRequest & { user: PasswordVerdict }, @Res({ passthrough: true }) reply: FastifyReply): Promise<Owner | PendingSignIn> {
    const { secondFactor, ...owner } = request.user;
    if (secondFactor.length > 0) {
      try {
        const id = await this.pending.create({ owner, startedAt: Date.now() });
        setPendingSignInCookie(request, reply, id, PENDING_SIGN_IN_TTL_SECONDS);
      } catch {
        throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
      }
      reply.status(202);
      return { secondFactor };
    }
    await this.issuer.issue(request, reply, owner);
    return owner;
  }

  /** Browser navigation to the login screen, which the web app shows at `/`. */
  @Public()
  @Get('login')
  loginScreen(@Res() reply: FastifyReply) {
    reply.redirect('/', 302);
  }

  /**
   * Ends the session and sends the browser to the login screen, telling it to
   * forget what it kept of the vault (Clear-Site-Data): on a shared phone the
   * installed app's shell and any stored draft go with the session.
   */
  @Public()
  @Get('logout')
  async logout(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const id = readSessionId(request);
    if (id) {
      try {
        await this.sessions.destroy(id);
      } catch {
        throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
      }
    }
    if (id) this.access.record(request, 'logout', true);
    clearSessionCookie(request, reply);
    clearSiteData(reply);
    reply.redirect('/', 302);
  }
}
