import type { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import type {
  ConfirmTotpRequest,
  EnrolledFactor,
  Owner,
  PasskeySignInRequest,
  RemoveFactorRequest,
  RenameFactorRequest,
  SecondFactorCodeRequest,
  SecondFactorOverview,
  TotpEnrolment,
} from '@vault/contracts';
import { apiJson } from './api';

/** The settings panel's SECOND FACTOR section reads this; every change answers with it or invalidates it. */
export const SECOND_FACTOR_KEY = ['/api/second-factor'] as const;

export function useSecondFactors(enabled = true) {
  return useQuery<SecondFactorOverview>({ queryKey: SECOND_FACTOR_KEY, enabled });
}

/** Loaded by the first passkey ceremony: the login screen of an owner without one never fetches it. */
const webauthn = () => import('@simplewebauthn/browser');

type PasskeyOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

export const secondFactorApi = {
  startTotp: () => apiJson<TotpEnrolment>('POST', '/api/second-factor/totp', {}),
  confirmTotp: (id: string, code: string) => apiJson<EnrolledFactor>('POST', '/api/second-factor/totp/confirm', { id, code } satisfies ConfirmTotpRequest),
  /** The browser makes the passkey (the authenticator asks its user), then the vault checks and keeps it. */
  async enrolPasskey(name?: string): Promise<EnrolledFactor> {
    const options = await apiJson<RegistrationOptions>('POST', '/api/second-factor/passkey/options');
    const response = await (await webauthn()).startRegistration({ optionsJSON: options });
    return apiJson<EnrolledFactor>('POST', '/api/second-factor/passkey', { response, ...(name ? { name } : {}) });
  },
  rename: (id: string, name: string) => apiJson('PATCH', `/api/second-factor/${id}`, { name } satisfies RenameFactorRequest),
  remove: (id: string, password?: string) =>
    apiJson<SecondFactorOverview>('DELETE', `/api/second-factor/${id}`, (password ? { password } : {}) satisfies RemoveFactorRequest),
  setPasskeySignIn: (enabled: boolean) =>
    apiJson<SecondFactorOverview>('PUT', '/api/second-factor/passkey-sign-in', { enabled } satisfies PasskeySignInRequest),
};

/** The sign-in's second step: a code (authenticator app or recovery code), or the passkey. */
export const signInApi = {
  code: (code: string) => apiJson<Owner>('POST', '/api/login/second-factor', { code } satisfies SecondFactorCodeRequest),
  /** After the password (the owner's passkeys), or alone (any passkey the authenticator holds for this vault). */
  async passkey(): Promise<Owner> {
    const options = await apiJson<PasskeyOptions>('POST', '/api/login/passkey/options');
    const response = await (await webauthn()).startAuthentication({ optionsJSON: options });
    return apiJson<Owner>('POST', '/api/login/passkey', { response });
  },
};

/** Re-authentication within the session: the password, and a code or the passkey when a factor is enrolled. */
export async function reauthenticate(password: string, proof: { code?: string; passkey?: boolean }) {
  let passkey: unknown;
  if (proof.passkey) {
    const options = await apiJson<PasskeyOptions>('POST', '/api/reauthenticate/passkey-options');
    passkey = await (await webauthn()).startAuthentication({ optionsJSON: options });
  }
  return apiJson('POST', '/api/reauthenticate', { password, ...(proof.code ? { code: proof.code } : {}), ...(passkey ? { passkey } : {}) });
}
