import { useQuery } from '@tanstack/react-query';
import type { Owner, SystemStatus } from '@vault/contracts';
import { getQueryFn } from './api';

export const STATUS_KEY = ['/api/system/status'] as const;
export const OWNER_KEY = ['/api/system/owner'] as const;
export const USER_KEY = ['/api/user'] as const;

/** System status; a failed check counts as not destroyed. */
export function useSystemStatus(): { isLoading: boolean; destroyed: boolean } {
  const query = useQuery<SystemStatus>({ queryKey: STATUS_KEY });
  return {
    isLoading: query.isPending,
    destroyed: query.isSuccess && query.data?.destroyed === true,
  };
}

/** The public owner profile (name and username) for the login title and the farewell page. */
export function useOwner() {
  return useQuery<Owner>({ queryKey: OWNER_KEY });
}

/**
 * The current-user answer. `globalAccess` tells whether the vault is open to
 * everyone (settings, TO THE MOON); a server that does not send it means off.
 */
export type CurrentUser = Owner & { globalAccess?: boolean };

/** The signed-in user; null when the server answers 401. */
export function useAuth(): { user: CurrentUser | null; isLoading: boolean; isAuthenticated: boolean } {
  const query = useQuery<CurrentUser | null>({
    queryKey: USER_KEY,
    queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
  });
  const user = query.data ?? null;
  return { user, isLoading: query.isPending, isAuthenticated: user !== null };
}

/** "{name}'s VAULT", or "VAULT" while the owner is unknown. */
export function vaultTitle(name: string | undefined | null): string {
  const trimmed = name?.trim();
  return trimmed ? `${trimmed}'s VAULT` : 'VAULT';
}

/** Global access is on only when the server says so explicitly. */
export function isGlobalAccessOn(user: CurrentUser | null | undefined): boolean {
  return user?.globalAccess === true;
}
