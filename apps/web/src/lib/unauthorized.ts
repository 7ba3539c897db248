import { navigation } from './navigation';
import { toast } from './toast';

export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const LOGIN_ENDPOINT = '/api/login';

/** True for a failure whose message starts with 401 and contains "Unauthorized". */
export function isUnauthorizedError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.message.startsWith('401') && error.message.includes('Unauthorized');
}

/**
 * The Unauthorized rule (spec section 8): destructive toast, then a redirect to
 * the login endpoint after 0.5 s. Returns true when the rule applied.
 */
export function handleUnauthorized(error: unknown, redirectTo: string = LOGIN_ENDPOINT): boolean {
  if (!isUnauthorizedError(error)) return false;
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    navigation.go(redirectTo);
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
  return true;
}
