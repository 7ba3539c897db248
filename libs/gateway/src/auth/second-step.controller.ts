import { Controller, HttpCode, Inject, Post, Req, Res, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { PasskeyAnswerRequest, PasskeyAuthenticationOptions, SecondFactorCodeRequest, type Owner } from '@vault/contracts';
import { Public } from '@vault/platform';
import { RpcClient } from '@vault/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { JsonBody } from '../http/json-body.decorator.js';
import { PENDING_SIGN_INS, PENDING_SIGN_IN_TTL_SECONDS, type PendingSignInRecord, type PendingSignInStore } from '../session/pending-sign-in.store.js';
import { clearPendingSignInCookie, readPendingSignInId, setPendingSignInCookie } from '../session/session-cookie.js';
import { relyingParty } from './relying-party.js';
import { bodyOf } from './request-body.js';
import { SecondFactorCheck } from './second-factor-check.js';
import { SessionIssuer } from './session-issuer.js';
import { SignInAttempts } from './sign-in-attempts.js';

const EXPIRED = 'The sign-in has expired. Enter your password again.';

/**
 * The sign-in's second step, after POST /api/login accepted the password
 * (202, and a pending sign-in in its own cookie): a code, a recovery code or
 * the passkey completes it and only then is a session issued. A passkey
 * alone may also sign in, when the owner turned that on.
 */
@Controller('api/login')
export class SecondStepController {
  constructor(
    @Inject(PENDING_SIGN_INS) private readonly pending: PendingSignInStore,
    private readonly rpc: RpcClient,
    private readonly attempts: SignInAttempts,
    private readonly check: SecondFactorCheck,
    private readonly issuer: SessionIssuer,
    private readonly access: AccessRecorder,
  ) {}

  @Public()
  @Post('second-factor')
  @HttpCode(200)
  async code(@JsonBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Owner> {
    const { code } = bodyOf(SecondFactorCodeRequest, body);
    const { id } = await this.signedInWithPassword(request);
    await this.attempts.admit(request);
    const { owner } = await this.check.verify(request, { code });
    return this.complete(request, reply, id, owner);
  }

  /** The challenge for the passkey: the owner's own after the password, or any discoverable one for a passkey alone. */
  @Public()
  @Post('passkey/options')
  @HttpCode(200)
  async passkeyOptions(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const found = await this.find(request);
    const passwordless = !found?.signIn.owner;
    const { options, challenge } = await this.rpc.send(PasskeyAuthenticationOptions, { rpID: relyingParty(request).rpID, passwordless });
    await this.storeFailing(async () => {
      if (found) return this.pending.update(found.id, { ...found.signIn, challenge });
      const id = await this.pending.create({ challenge, startedAt: Date.now() });
      setPendingSignInCookie(request, reply, id, PENDING_SIGN_IN_TTL_SECONDS);
    });
    return options;
  }

  @Public()
  @Post('passkey')
  @HttpCode(200)
  async passkey(@JsonBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Owner> {
    const { response } = bodyOf(PasskeyAnswerRequest, body);
    const found = await this.find(request);
    if (!found?.signIn.challenge) throw new UnauthorizedException(EXPIRED);
    await this.attempts.admit(request);
    const passwordless = !found.signIn.owner;
    const { owner } = await this.check.verify(request, { passkey: { ...relyingParty(request), response, challenge: found.signIn.challenge, passwordless } });
    return this.complete(request, reply, found.id, owner);
  }

  private async signedInWithPassword(request: FastifyRequest) {
    const found = await this.find(request);
    if (!found?.signIn.owner) throw new UnauthorizedException(EXPIRED);
    return found;
  }

  private async find(request: FastifyRequest): Promise<{ id: string; signIn: PendingSignInRecord } | undefined> {
    const id = readPendingSignInId(request);
    if (!id) return undefined;
    const signIn = await this.storeFailing(() => this.pending.get(id));
    return signIn ? { id, signIn } : undefined;
  }

  /** Every step passed: the session, then the pending sign-in ends (its cookie cleared after the session's is set). */
  private async complete(request: FastifyRequest, reply: FastifyReply, pendingId: string, owner: Owner): Promise<Owner> {
    await this.issuer.issue(request, reply, owner);
    await this.pending.destroy(pendingId).catch(() => undefined);
    clearPendingSignInCookie(request, reply);
    this.access.record(request, 'login_success', true);
    return owner;
  }

  private async storeFailing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw new ServiceUnavailableException('The session store is unavailable. Try again shortly.');
    }
  }
}
