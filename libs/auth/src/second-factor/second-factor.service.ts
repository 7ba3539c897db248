import { Injectable } from '@nestjs/common';
import type { EnrolledFactor, PasskeyResponse, SecondFactorMethod, SecondFactorOverview, TotpEnrolment } from '@vault/contracts';
import { RpcFailure } from '@vault/transport';
import { OwnerCredentialService } from '../owner/owner-credential.service.js';
import { hashPassword, verifyPassword } from '../owner/password-hasher.js';
import { authenticationOptions, registrationOptions, verifiedAssertion, verifiedRegistration, type RelyingParty } from './passkeys.js';
import { newRecoveryCodes, normalRecoveryCode } from './recovery-codes.js';
import { SecondFactorRepository, factorSummary, type FactorRow } from './second-factor.repository.js';
import { newTotpSecret, totpProvisioning, totpStepOf } from './totp.js';

export interface PasskeyProof extends RelyingParty {
  response: PasskeyResponse;
  challenge: string;
  passwordless: boolean;
}

/**
 * The owner's second factors: enrolment (an authenticator app counts once a
 * first code confirmed it; the first factor brings ten recovery codes),
 * changes, and the check that completes a sign-in. The lockout is the
 * handlers' concern: this only judges.
 */
@Injectable()
export class SecondFactorService {
  constructor(
    private readonly factors: SecondFactorRepository,
    private readonly credentials: OwnerCredentialService,
  ) {}

  /** What a sign-in must complete with after the password; empty when no factor is enrolled. */
  async methods(): Promise<SecondFactorMethod[]> {
    const factors = await this.factors.confirmed();
    if (factors.length === 0) return [];
    const kinds = new Set(factors.map((f) => f.kind));
    const methods: SecondFactorMethod[] = (['passkey', 'totp'] as const).filter((kind) => kinds.has(kind));
    if ((await this.factors.unusedRecoveryCodes()).length > 0) methods.push('recovery');
    return methods;
  }

  async overview(): Promise<SecondFactorOverview> {
    const [factors, codes, passkeySignIn] = await Promise.all([this.factors.confirmed(), this.factors.unusedRecoveryCodes(), this.factors.passkeySignIn()]);
    return { factors: factors.map(factorSummary), recoveryCodesLeft: codes.length, passkeySignIn };
  }

  async startTotp(name: string | undefined, accountName: string): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    const row = await this.factors.addUnconfirmedTotp(name ?? 'Authenticator app', secret);
    return { id: row.id, secret, ...(await totpProvisioning(secret, accountName)) };
  }

  async confirmTotp(id: string, code: string): Promise<EnrolledFactor> {
    const row = await this.factors.find(id);
    if (row?.kind !== 'totp' || row.confirmedAt) throw new RpcFailure(404, 'No authenticator app is waiting for its first code. Start again.');
    const step = totpStepOf(row.totpSecret!, code);
    if (step === undefined) throw new RpcFailure(400, 'code: is not the code the authenticator app shows now');
    return this.enrolled(() => this.factors.confirm(id, step));
  }

  async registrationOptions(rpID: string, userName: string, displayName: string) {
    return registrationOptions(rpID, userName, displayName, await this.passkeys());
  }

  async registerPasskey(response: PasskeyResponse, challenge: string, party: RelyingParty, name: string | undefined): Promise<EnrolledFactor> {
    const credential = await verifiedRegistration(response, challenge, party);
    if (!credential) throw new RpcFailure(400, 'The passkey could not be verified. Try again.');
    if (await this.factors.findPasskey(credential.credentialId)) throw new RpcFailure(409, 'This passkey is already enrolled.');
    return this.enrolled(() => this.factors.addPasskey({ name: name ?? 'Passkey', ...credential }));
  }

  async rename(id: string, name: string) {
    const row = await this.factors.rename(id, name);
    if (!row) throw new RpcFailure(404, 'No such second factor.');
    return factorSummary(row);
  }

  /** The last factor goes only with the owner's password: it turns the second factor off. */
  async remove(id: string, password: string | undefined): Promise<SecondFactorOverview> {
    const factors = await this.factors.confirmed();
    if (!factors.some((f) => f.id === id)) throw new RpcFailure(404, 'No such second factor.');
    if (factors.length === 1) {
      if (!password) throw new RpcFailure(400, 'password: is required to remove the last second factor');
      if (!(await this.credentials.verifyPassword(password))) throw new RpcFailure(403, 'password: is not the owner password');
    }
    await this.factors.remove(id);
    return this.overview();
  }

  async setPasskeySignIn(enabled: boolean): Promise<SecondFactorOverview> {
    if (enabled && (await this.passkeys()).length === 0) throw new RpcFailure(400, 'Enrol a passkey before letting it sign in alone.');
    await this.factors.setPasskeySignIn(enabled);
    return this.overview();
  }

  async passkeySignInEnabled(): Promise<boolean> {
    return (await this.factors.passkeySignIn()) && (await this.passkeys()).length > 0;
  }

  async authenticationOptions(rpID: string, passwordless: boolean) {
    const passkeys = await this.passkeys();
    if (passkeys.length === 0 || (passwordless && !(await this.factors.passkeySignIn()))) {
      throw new RpcFailure(400, passwordless ? 'Signing in with a passkey alone is not enabled.' : 'No passkey is enrolled.');
    }
    return authenticationOptions(rpID, passkeys, passwordless);
  }

  /** Which method proved the owner, or undefined: a wrong, replayed or used code, or a passkey that did not sign. */
  async judge(proof: { code?: string; passkey?: PasskeyProof }): Promise<SecondFactorMethod | undefined> {
    if (proof.passkey) return (await this.judgePasskey(proof.passkey)) ? 'passkey' : undefined;
    const code = proof.code ?? '';
    if (/^\d{6}$/.test(code)) return (await this.judgeTotp(code)) ? 'totp' : undefined;
    return (await this.judgeRecoveryCode(code)) ? 'recovery' : undefined;
  }

  private async judgeTotp(code: string): Promise<boolean> {
    for (const factor of await this.factors.confirmed()) {
      if (factor.kind !== 'totp') continue;
      const step = totpStepOf(factor.totpSecret!, code);
      // A code already used (its step, or a later one) is refused: no replay within its window.
      if (step !== undefined && (await this.factors.useTotpStep(factor.id, step))) return true;
    }
    return false;
  }

  private async judgeRecoveryCode(code: string): Promise<boolean> {
    const normal = normalRecoveryCode(code);
    if (!normal) return false;
    for (const stored of await this.factors.unusedRecoveryCodes()) {
      if (await verifyPassword(stored.codeHash, normal)) return this.factors.useRecoveryCode(stored.id);
    }
    return false;
  }

  private async judgePasskey(proof: PasskeyProof): Promise<boolean> {
    if (proof.passwordless && !(await this.factors.passkeySignIn())) return false;
    const passkey = await this.factors.findPasskey(proof.response.id);
    if (!passkey) return false;
    const counter = await verifiedAssertion(proof.response, passkey, proof.challenge, proof, proof.passwordless);
    if (counter === undefined) return false;
    await this.factors.usePasskey(passkey.id, counter);
    return true;
  }

  private async passkeys(): Promise<FactorRow[]> {
    return (await this.factors.confirmed()).filter((f) => f.kind === 'passkey');
  }

  /** Adds a factor; the first one also brings the ten recovery codes, returned in clear this once and kept as hashes. */
  private async enrolled(add: () => Promise<FactorRow>): Promise<EnrolledFactor> {
    const first = (await this.factors.confirmed()).length === 0;
    let recoveryCodes: string[] | undefined;
    if (first) {
      recoveryCodes = newRecoveryCodes();
      await this.factors.replaceRecoveryCodes(await Promise.all(recoveryCodes.map((code) => hashPassword(normalRecoveryCode(code)!))));
    }
    const row = await add();
    return { factor: factorSummary(row), ...(recoveryCodes ? { recoveryCodes } : {}) };
  }
}
