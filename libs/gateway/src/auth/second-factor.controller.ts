import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, UseGuards, UnauthorizedException } from '@nestjs/common';
import {
  ConfirmTotpEnrolment,
  ListSecondFactors,
  PasskeyRegistrationOptions,
  PasskeySignInRequest,
  RegisterPasskey,
  RegisterPasskeyRequest,
  RemoveFactorRequest,
  RemoveSecondFactor,
  RenameFactorRequest,
  RenameSecondFactor,
  SetPasskeySignIn,
  StartTotpEnrolment,
  StartTotpRequest,
  ConfirmTotpRequest,
  type EnrolledFactor,
} from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { AccessRecorder } from '../audit/access-recorder.js';
import { JsonBody } from '../http/json-body.decorator.js';
import type { AuthenticatedRequest } from '../vault/access-check.js';
import { OwnerOnly } from '../vault/route-flags.js';
import { RecentAuthentication, RecentAuthenticationGuard } from './recent-authentication.js';
import { relyingParty } from './relying-party.js';
import { bodyOf } from './request-body.js';

/**
 * The settings panel's SECOND FACTOR section. Only the owner's own session,
 * and every change that adds or removes a way in needs a full authentication
 * within the last five minutes (renaming does not).
 */
@Controller('api/second-factor')
export class SecondFactorController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly recent: RecentAuthentication,
    private readonly access: AccessRecorder,
  ) {}

  @OwnerOnly()
  @Get()
  overview() {
    return this.rpc.send(ListSecondFactors, {});
  }

  /** A new secret for an authenticator app, with its QR code; it counts once confirmed by a first code. */
  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('totp')
  @HttpCode(200)
  startTotp(@JsonBody() body: Record<string, unknown>, @Req() request: AuthenticatedRequest) {
    const { name } = bodyOf(StartTotpRequest, body);
    return this.rpc.send(StartTotpEnrolment, { name, accountName: request.session!.data.owner.username });
  }

  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('totp/confirm')
  @HttpCode(200)
  async confirmTotp(@JsonBody() body: Record<string, unknown>, @Req() request: AuthenticatedRequest): Promise<EnrolledFactor> {
    const enrolled = await this.rpc.send(ConfirmTotpEnrolment, bodyOf(ConfirmTotpRequest, body));
    this.access.record(request, 'second_factor_added', true);
    return enrolled;
  }

  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('passkey/options')
  @HttpCode(200)
  async passkeyOptions(@Req() request: AuthenticatedRequest) {
    const { owner } = request.session!.data;
    const { options, challenge } = await this.rpc.send(PasskeyRegistrationOptions, {
      rpID: relyingParty(request).rpID,
      userName: owner.username,
      displayName: owner.name,
    });
    await this.recent.keepChallenge(request, challenge);
    return options;
  }

  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('passkey')
  @HttpCode(200)
  async registerPasskey(@JsonBody() body: Record<string, unknown>, @Req() request: AuthenticatedRequest): Promise<EnrolledFactor> {
    const { response, name } = bodyOf(RegisterPasskeyRequest, body);
    const challenge = request.session!.data.challenge;
    if (!challenge) throw new UnauthorizedException('The passkey enrolment has expired. Start again.');
    await this.recent.keepChallenge(request, undefined);
    const enrolled = await this.rpc.send(RegisterPasskey, { response, name, challenge, ...relyingParty(request) });
    this.access.record(request, 'second_factor_added', true);
    return enrolled;
  }

  @OwnerOnly()
  @Patch(':id')
  rename(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.send(RenameSecondFactor, { id, ...bodyOf(RenameFactorRequest, body) });
  }

  /** The last factor needs the password as well (`{password}`): removing it turns the second factor off. */
  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Delete(':id')
  async remove(@Param('id') id: string, @Req() request: AuthenticatedRequest) {
    // The body is optional here: only the last factor needs the password.
    const overview = await this.rpc.send(RemoveSecondFactor, { id, ...bodyOf(RemoveFactorRequest, request.body) });
    this.access.record(request, 'second_factor_removed', true);
    return overview;
  }

  /** Whether a passkey alone signs the owner in. */
  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Put('passkey-sign-in')
  setPasskeySignIn(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.send(SetPasskeySignIn, bodyOf(PasskeySignInRequest, body));
  }
}
