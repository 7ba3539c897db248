import { Controller, Inject } from '@nestjs/common';
import {
  ConfirmTotpEnrolment,
  GetPasskeySignIn,
  ListSecondFactors,
  PasskeyAuthenticationOptions,
  PasskeyRegistrationOptions,
  RegisterPasskey,
  RemoveSecondFactor,
  RenameSecondFactor,
  SetPasskeySignIn,
  StartTotpEnrolment,
  VerifySecondFactor,
  type RpcRequest,
} from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { LOCKED, LockoutService, refusalOf } from '../lockout/lockout.service.js';
import { OWNER_OPTIONS, type OwnerOptions } from '../owner/owner.options.js';
import { SecondFactorService } from './second-factor.service.js';

/** auth-svc's second factors: the settings panel's enrolment and changes, and the sign-in's second step. */
@Controller()
export class SecondFactorHandlers {
  constructor(
    private readonly factors: SecondFactorService,
    private readonly lockout: LockoutService,
    @Inject(OWNER_OPTIONS) private readonly owner: OwnerOptions,
  ) {}

  @Handles(ListSecondFactors)
  list() {
    return this.factors.overview();
  }

  @Handles(StartTotpEnrolment)
  startTotp(request: RpcRequest<typeof StartTotpEnrolment>) {
    return this.factors.startTotp(request.name, request.accountName);
  }

  @Handles(ConfirmTotpEnrolment)
  confirmTotp(request: RpcRequest<typeof ConfirmTotpEnrolment>) {
    return this.factors.confirmTotp(request.id, request.code);
  }

  @Handles(PasskeyRegistrationOptions)
  registrationOptions(request: RpcRequest<typeof PasskeyRegistrationOptions>) {
    return this.factors.registrationOptions(request.rpID, request.userName, request.displayName);
  }

  @Handles(RegisterPasskey)
  registerPasskey(request: RpcRequest<typeof RegisterPasskey>) {
    return this.factors.registerPasskey(request.response, request.challenge, { rpID: request.rpID, origin: request.origin }, request.name);
  }

  @Handles(RenameSecondFactor)
  rename(request: RpcRequest<typeof RenameSecondFactor>) {
    return this.factors.rename(request.id, request.name);
  }

  @Handles(RemoveSecondFactor)
  remove(request: RpcRequest<typeof RemoveSecondFactor>) {
    return this.factors.remove(request.id, request.password);
  }

  @Handles(SetPasskeySignIn)
  setPasskeySignIn(request: RpcRequest<typeof SetPasskeySignIn>) {
    return this.factors.setPasskeySignIn(request.enabled);
  }

  @Handles(GetPasskeySignIn)
  async passkeySignIn() {
    return { enabled: await this.factors.passkeySignInEnabled() };
  }

  @Handles(PasskeyAuthenticationOptions)
  authenticationOptions(request: RpcRequest<typeof PasskeyAuthenticationOptions>) {
    return this.factors.authenticationOptions(request.rpID, request.passwordless);
  }

  /**
   * The second step, in the same per-address streak as the password: a wrong
   * code or passkey is a failure like a wrong password, and the right one
   * ends the streak (the password alone no longer does, see OwnerHandlers).
   */
  @Handles(VerifySecondFactor)
  async verify(request: RpcRequest<typeof VerifySecondFactor>) {
    const ip = request.client?.ip ?? 'unknown';
    const claim = await this.lockout.claimInTurn(ip);
    if (!claim.judged) throw refusalOf(claim);
    const method = await this.lockout.judge(ip, () => this.factors.judge({ code: request.code, passkey: request.passkey }));
    if (!method) {
      if (await this.lockout.recordFailure(ip)) throw new RpcFailure(423, LOCKED);
      throw RpcFailure.unauthorized(request.passkey ? 'The passkey was not accepted' : 'Invalid code');
    }
    await this.lockout.release(ip, claim);
    return { owner: { name: this.owner.name, username: this.owner.username }, method };
  }
}
