import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, type CurrentUser } from '@vault/contracts';
import { isUnreachableError } from './reachability';
import { routeQuery, routeQueryOrNullOn401 } from './route-query';

/**
 * The three calls every first screen waits for are made whatever the browser
 * thinks of its connection: offline, TanStack Query would hold them paused,
 * and the page would say INITIALIZING VAULT... for ever instead of VAULT
 * UNREACHABLE.
 */
const FIRST_CALL = { networkMode: 'always' } as const;
const statusQuery = { ...routeQuery(HTTP_ROUTES.systemStatus), ...FIRST_CALL };
const ownerQuery = { ...routeQuery(HTTP_ROUTES.systemOwner), ...FIRST_CALL };
const userQuery = { ...routeQueryOrNullOn401(HTTP_ROUTES.currentUser), ...FIRST_CALL };
export const STATUS_KEY = statusQuery.queryKey;
export const OWNER_KEY = ownerQuery.queryKey;
export const USER_KEY = userQuery.queryKey;

export interface SystemStatus {
  isLoading: boolean;
  destroyed: boolean;
  /** The status call got no answer at all (no network, or the vault's address is down). */
  unreachable: boolean;
  /** The call is being made again (see useRetryFirstCalls). */
  retrying: boolean;
}

/** System status; a failed check counts as not destroyed, and one that got no answer as unreachable. */
export function useSystemStatus(): SystemStatus {
  const query = useQuery(statusQuery);
  return {
    isLoading: query.isPending,
    destroyed: query.isSuccess && query.data?.destroyed === true,
    unreachable: query.isError && isUnreachableError(query.error),
    retrying: query.isFetching,
  };
}

/** Makes the three first calls again (VAULT UNREACHABLE's RETRY). */
export function useRetryFirstCalls(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([STATUS_KEY, OWNER_KEY, USER_KEY].map((queryKey) => queryClient.refetchQueries({ queryKey, exact: true })));
  }, [queryClient]);
}

/** The public owner profile (name and username) for the login title and the farewell page. */
export function useOwner() {
  return useQuery(ownerQuery);
}

/**
 * The current user (GET /api/user: the owner, `globalAccess` when the vault is
 * open to everyone, and `signedIn` false for a visitor who reaches it through
 * global access without the owner's session); null when the server answers 401. `isAuthenticated` is the
 * answer's presence (every screen is open); `isVisitor` says it is a visitor of
 * a public vault, who has none of the owner's switches and no session to end.
 */
export function useAuth(): { user: CurrentUser | null; isLoading: boolean; isAuthenticated: boolean; isVisitor: boolean } {
  const query = useQuery(userQuery);
  const user = query.data ?? null;
  return { user, isLoading: query.isPending, isAuthenticated: user !== null, isVisitor: isVisitor(user) };
}

/** A visitor of a public vault: the server says explicitly that nobody is signed in. */
export function isVisitor(user: CurrentUser | null | undefined): boolean {
  return user?.signedIn === false;
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

/**
 * The router state with which a visitor's SIGN IN asks for the login form at /
 * (the route table offers no other path for it).
 */
export const SIGN_IN_STATE = { signIn: true } as const;

/** Whether a location's state is SIGN IN's. */
export function wantsSignIn(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { signIn?: unknown }).signIn === true;
}
