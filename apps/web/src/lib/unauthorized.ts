import { HTTP_ROUTES } from '@vault/contracts';
import { serverReason } from './api';
import { isGoneError, markVaultGone } from './farewell';
import { leaveFor } from './leave';
import { rememberScreen } from './return-path';
import { toast } from './toast';

export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const LOGIN_ENDPOINT = HTTP_ROUTES.login.path;

export interface UnauthorizedOptions {
  /** The balance screen's variant: no toast, and the redirect happens at once. */
  immediate?: boolean;
}

/** True for a failure whose message starts with 401 and contains "Unauthorized". */
export function isUnauthorizedError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.message.startsWith('401') && error.message.includes('Unauthorized');
}

/**
 * The Unauthorized rule (spec section 8): destructive toast, then a redirect to
 * the login endpoint after 0.5 s (at once and silently with `immediate`).
 * The screen is remembered, so that signing in again comes back to it, and
 * what was being typed stays as a draft (see drafts). Returns true when the
 * rule applied.
 */
export function handleUnauthorized(error: unknown, options: UnauthorizedOptions = {}): boolean {
  if (!isUnauthorizedError(error)) return false;
  rememberScreen();
  if (options.immediate) {
    void leaveFor(LOGIN_ENDPOINT);
    return true;
  }
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    void leaveFor(LOGIN_ENDPOINT);
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
  return true;
}

/**
 * How a failed action is reported (spec section 8): the Unauthorized rule when it
 * applies, otherwise the destructive toast "Error" with the action's own text,
 * and under it the server's reason when it gave one ("Failed to update balance",
 * then "amount: must not exceed the balance (1,000)").
 */
export function toastFailure(error: unknown, description: string, options: UnauthorizedOptions = {}): void {
  // A destroyed vault answers 410 to everything: the farewell page, not "Failed to ...".
  if (isGoneError(error)) {
    markVaultGone();
    return;
  }
  if (handleUnauthorized(error, options)) return;
  toast({ title: 'Error', description, detail: serverReason(error), variant: 'destructive' });
}
