import type { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { HTTP_ROUTES, type EnrolledFactor, type Owner, type PasskeyResponse } from '@vault/contracts';
import { callApi } from './api';
import { routeQuery } from './route-query';

/** The settings panel's SECOND FACTOR section reads this; every change answers with it or invalidates it. */
const secondFactorsQuery = routeQuery(HTTP_ROUTES.secondFactors);
export const SECOND_FACTOR_KEY = secondFactorsQuery.queryKey;

export function useSecondFactors(enabled = true) {
  return useQuery({ ...secondFactorsQuery, enabled });
}

/** Loaded by the first passkey ceremony: the login screen of an owner without one never fetches it. */
const webauthn = () => import('@simplewebauthn/browser');

type PasskeyOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

/**
 * What the browser's ceremony answered, as the contract types it: the
 * library's JSON types list their fields without the index signature of the
 * contract's loose objects, which take every field the browser adds.
 */
function asPasskeyResponse(response: object): PasskeyResponse {
  return response as PasskeyResponse;
}

export const secondFactorApi = {
  startTotp: () => callApi(HTTP_ROUTES.startTotp, { body: {} }),
  confirmTotp: (id: string, code: string) => callApi(HTTP_ROUTES.confirmTotp, { body: { id, code } }),
  /** The browser makes the passkey (the authenticator asks its user), then the vault checks and keeps it. */
  async enrolPasskey(name?: string): Promise<EnrolledFactor> {
    const options = (await callApi(HTTP_ROUTES.passkeyRegistrationOptions)) as RegistrationOptions;
    const response = await (await webauthn()).startRegistration({ optionsJSON: options });
    return callApi(HTTP_ROUTES.registerPasskey, { body: { response: asPasskeyResponse(response), ...(name ? { name } : {}) } });
  },
  rename: (id: string, name: string) => callApi(HTTP_ROUTES.renameFactor, { params: { id }, body: { name } }),
  remove: (id: string, password?: string) => callApi(HTTP_ROUTES.removeFactor, { params: { id }, body: password ? { password } : {} }),
  setPasskeySignIn: (enabled: boolean) => callApi(HTTP_ROUTES.passkeySignIn, { body: { enabled } }),
};

/** The sign-in's second step: a code (authenticator app or recovery code), or the passkey. */
export const signInApi = {
  code: (code: string) => callApi(HTTP_ROUTES.loginSecondFactor, { body: { code } }),
  /** After the password (the owner's passkeys), or alone (any passkey the authenticator holds for this vault). */
  async passkey(): Promise<Owner> {
    const options = (await callApi(HTTP_ROUTES.loginPasskeyOptions)) as PasskeyOptions;
    const response = await (await webauthn()).startAuthentication({ optionsJSON: options });
    return callApi(HTTP_ROUTES.loginPasskey, { body: { response: asPasskeyResponse(response) } });
  },
};

/** Re-authentication within the session: the password, and a code or the passkey when a factor is enrolled. */
export async function reauthenticate(password: string, proof: { code?: string; passkey?: boolean }) {
  let passkey: PasskeyResponse | undefined;
  if (proof.passkey) {
    const options = (await callApi(HTTP_ROUTES.reauthenticatePasskeyOptions)) as PasskeyOptions;
    passkey = asPasskeyResponse(await (await webauthn()).startAuthentication({ optionsJSON: options }));
  }
  return callApi(HTTP_ROUTES.reauthenticate, { body: { password, ...(proof.code ? { code: proof.code } : {}), ...(passkey ? { passkey } : {}) } });
}
