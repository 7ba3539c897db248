import { Controller, Get, HttpCode, Inject, Post, Req, Res, ServiceUnavailableException, UseGuards } from '@nestjs/common';
import { GetOwnerProfile, type CurrentUser, type Owner } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { VaultStateCache } from '../vault/vault-state.cache.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { Public } from '@vault/platform';
import { clearSessionCookie, readSessionId, setSessionCookie } from '../session/session-cookie.js';
import type { AuthenticatedRequest } from '../session/session.guard.js';
import { SESSION_STORE, type SessionStore } from '../session/session.store.js';
import { AccessRecorder } from '../audit/access-recorder.js';
import { LoginGuard } from './login.guard.js';

@Controller('api')
export class SessionController {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly access: AccessRecorder,
    private readonly vault: VaultStateCache,
    private readonly rpc: RpcClient,
  ) {}

  /** Signs in: the old session (if any) ends and a new id is issued, so a planted id is useless. */
  @Public()
  @UseGuards(LoginGuard)
  @Post('login')
  @HttpCode(200)
  async login(@Req() request: FastifyRequest & { user: Owner }, @Res({ passthrough: true }) reply: FastifyReply): Promise<Owner> {
    try {
      const previous = readSessionId(request);
      if (previous) await this.sessions.destroy(previous);
      const id = await this.sessions.create({ owner: request.user, signedInAt: Date.now() });
      setSessionCookie(request, reply, id, this.options.sessionTtlSeconds);
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
    return request.user;
  }

  /** Browser navigation to the login screen, which the web app shows at `/`. */
  @Public()
  @Get('login')
  loginScreen(@Res() reply: FastifyReply) {
    reply.redirect('/', 302);
  }

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
    reply.redirect('/', 302);
  }

  /** The owner with a session; under global access, a visitor without one is shown the owner's vault too. */
  @Get('user')
  async user(@Req() request: AuthenticatedRequest): Promise<CurrentUser> {
    const { globalAccess } = await this.vault.get();
    if (request.session) return { ...request.session.data.owner, globalAccess, signedIn: true };
    return { ...(await this.rpc.send(GetOwnerProfile, {})), globalAccess, signedIn: false };
  }
}
