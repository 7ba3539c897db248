import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';
import { isGoneError, markVaultGone } from './farewell';
import { handleUnauthorized } from './unauthorized';

/** What a query may tell the shared error handling. */
export interface VaultQueryMeta extends Record<string, unknown> {
  /** "immediate": the balance screen's Unauthorized rule (no toast, redirect at once). */
  unauthorized?: 'immediate';
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: VaultQueryMeta;
  }
}

/**
 * Data fetching defaults (spec section 7): no retries, no refetch on window focus,
 * no polling, and cached data never goes stale. A read refused with 401
 * Unauthorized sends the owner to the login endpoint (spec section 8), wherever
 * the read was made; a failed action reports itself (see toastFailure). Any
 * call refused with 410 Gone switches the page to the farewell page.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // 410: the vault was destroyed (from another tab, say); this page shows the farewell page.
        if (isGoneError(error)) {
          markVaultGone();
          return;
        }
        handleUnauthorized(error, { immediate: query.meta?.unauthorized === 'immediate' });
      },
    }),
    // Every write refused with 410 too, whatever its own failure handling.
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isGoneError(error)) markVaultGone();
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
