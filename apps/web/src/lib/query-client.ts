import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/**
 * Data fetching defaults (spec section 7): no retries, no refetch on window focus,
 * no polling, and cached data never goes stale.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
