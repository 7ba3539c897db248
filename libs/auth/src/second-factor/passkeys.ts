import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, RegistrationResponseJSON } from '@simplewebauthn/server';
import { createHash } from 'node:crypto';
import type { FactorRow } from './second-factor.repository.js';

/** Loaded by the first passkey call: most starts never see one, and the embedded vault's start stays lean. */
const webauthn = () => import('@simplewebauthn/server');

/** Where the browser is: the relying party is the host name it used, the origin is scheme, host and port. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

type Json = Record<string, unknown>;

/** One owner, so one stable user handle; a discoverable credential carries it back at a passkey-only sign-in. */
function ownerHandle(userName: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`vault-owner:${userName}`).digest());
}

function allowList(passkeys: FactorRow[]) {
  return passkeys.map((p) => ({ id: p.credentialId!, transports: (p.transports ?? []) as AuthenticatorTransportFuture[] }));
}

/**
 * A discoverable credential (a passkey proper, so it can later sign in alone)
 * with user verification preferred; passkeys already enrolled are excluded, so
 * one authenticator is not enrolled twice.
 */
export async function registrationOptions(rpID: string, userName: string, displayName: string, existing: FactorRow[]) {
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: 'Vault',
    rpID,
    userName,
    userDisplayName: displayName,
    userID: ownerHandle(userName),
    attestationType: 'none',
    excludeCredentials: allowList(existing),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  return { options: options as unknown as Json, challenge: options.challenge };
}

export async function verifiedRegistration(response: Json, challenge: string, party: RelyingParty) {
  const verdict = await (await webauthn())
    .verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpID,
      requireUserVerification: false,
    })
    .catch(() => undefined);
  if (!verdict?.verified) return undefined;
  const { credential } = verdict.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    signCount: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** With the password first: the owner's own passkeys. Alone: whichever passkey the authenticator holds, verified by the user. */
export async function authenticationOptions(rpID: string, passkeys: FactorRow[], passwordless: boolean) {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID,
    allowCredentials: passwordless ? [] : allowList(passkeys),
    userVerification: passwordless ? 'required' : 'preferred',
  });
  return { options: options as unknown as Json, challenge: options.challenge };
}

/** The new signature counter when `passkey` signed this challenge for this relying party, else undefined. */
export async function verifiedAssertion(response: Json, passkey: FactorRow, challenge: string, party: RelyingParty, passwordless: boolean) {
  const verdict = await (await webauthn())
    .verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpID,
      credential: {
        id: passkey.credentialId!,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey!, 'base64url')),
        counter: passkey.signCount ?? 0,
        transports: (passkey.transports ?? []) as AuthenticatorTransportFuture[],
      },
      // A passkey alone is both factors: it must have checked the user (PIN or biometrics).
      requireUserVerification: passwordless,
    })
    .catch(() => undefined);
  return verdict?.verified ? verdict.authenticationInfo.newCounter : undefined;
}
