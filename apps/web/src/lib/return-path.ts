import { onVaultGone } from './farewell';

/**
 * The screen to come back to after signing in again. Kept for this tab only
 * (sessionStorage): it is written just before an expired session sends the
 * browser to the login endpoint, and read once by the login screen.
 */
export const RETURN_PATH_KEY = 'vault.returnTo';

/** A path of this site's web app: not another origin ("//host"), not the API. */
export function isReturnable(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !/^\/api(\/|$|\?|#)/.test(path);
}

/** Remembers the current screen (path, query and hash) for the next sign-in. */
export function rememberScreen(location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): void {
  const path = `${location.pathname}${location.search}${location.hash}`;
  if (!isReturnable(path) || path === '/') return;
  try {
    sessionStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Storage refused (private mode, quota): the owner lands on / as before.
  }
}

/** The remembered screen, or / when there is none; forgotten once read. */
export function takeReturnPath(): string {
  try {
    const path = sessionStorage.getItem(RETURN_PATH_KEY);
    sessionStorage.removeItem(RETURN_PATH_KEY);
    return path && isReturnable(path) ? path : '/';
  } catch {
    return '/';
  }
}

onVaultGone(() => {
  sessionStorage.removeItem(RETURN_PATH_KEY);
});
