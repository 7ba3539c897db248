import { BadRequestException, Controller, ForbiddenException, HttpCode, Post, Req } from '@nestjs/common';
import { GetOwnerProfile, PasskeyAuthenticationOptions, ReauthenticateRequest, VerifyOwner } from '@vault/contracts';
import { RpcClient, RpcFailure } from '@vault/transport';
import { AccessRecorder } from '../audit/access-recorder.js';
import { JsonBody } from '../http/json-body.decorator.js';
import type { AuthenticatedRequest } from '../vault/access-check.js';
import { OwnerOnly } from '../vault/route-flags.js';
import { RecentAuthentication } from './recent-authentication.js';
import { relyingParty } from './relying-party.js';
import { bodyOf, clientOf } from './request-body.js';
import { SecondFactorCheck } from './second-factor-check.js';
import { SignInAttempts } from './sign-in-attempts.js';

/**
 * Re-authentication within a session: the password again, and the second
 * factor when one is enrolled. It renews the five-minute window of the
 * drastic actions; each step counts in the address's rate limit and lockout
 * as a sign-in does.
 */
@Controller('api/reauthenticate')
export class ReauthenticationController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly attempts: SignInAttempts,
    private readonly check: SecondFactorCheck,
    private readonly recent: RecentAuthentication,
    private readonly access: AccessRecorder,
  ) {}

  @OwnerOnly()
  @Post()
  @HttpCode(200)
  async reauthenticate(@JsonBody() body: Record<string, unknown>, @Req() request: AuthenticatedRequest) {
    const { password, code, passkey } = bodyOf(ReauthenticateRequest, body);
    await this.attempts.admit(request);
    const owner = await this.rpc.send(GetOwnerProfile, {});
    let secondFactor: string[];
    try {
      ({ secondFactor } = await this.rpc.send(VerifyOwner, { username: owner.username, password, client: clientOf(request) }));
    } catch (error) {
      if (error instanceof RpcFailure && error.status < 500)
        this.access.record(request, error.status === 423 ? 'account_locked' : 'reauthentication_failed', false);
      // Not a 401: the session is fine, only the password re-entered is wrong.
      if (error instanceof RpcFailure && error.status === 401) throw new ForbiddenException('password: is not the owner password');
      throw error;
    }
    if (secondFactor.length > 0) {
      const challenge = request.session!.data.challenge;
      const proof =
        passkey && challenge ? { passkey: { ...relyingParty(request), response: passkey, challenge, passwordless: false } } : code ? { code } : undefined;
      if (!proof) throw new BadRequestException('code: is required: a second factor is enrolled (or answer with the passkey)');
      await this.attempts.admit(request);
      try {
        await this.check.verify(request, proof);
      } catch (error) {
        // As for the password: the session is fine, only the factor given again is wrong.
        if (error instanceof RpcFailure && error.status === 401) throw new ForbiddenException(`${passkey ? 'passkey' : 'code'}: ${error.message}`);
        throw error;
      }
    }
    await this.recent.renew(request);
    this.access.record(request, 'reauthenticated', true);
    return { reauthenticated: true };
  }

  /** The challenge for re-authenticating with a passkey, kept in the session until it is answered. */
  @OwnerOnly()
  @Post('passkey-options')
  @HttpCode(200)
  async passkeyOptions(@Req() request: AuthenticatedRequest) {
    const { options, challenge } = await this.rpc.send(PasskeyAuthenticationOptions, { rpID: relyingParty(request).rpID, passwordless: false });
    await this.recent.keepChallenge(request, challenge);
    return options;
  }
}
