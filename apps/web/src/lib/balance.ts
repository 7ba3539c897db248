import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, INITIAL_BALANCE, type Balance } from '@vault/contracts';
import { callApi } from './api';
import { routeQuery } from './route-query';
import { toastFailure } from './unauthorized';

const balanceQuery = routeQuery(HTTP_ROUTES.balance);
export const BALANCE_KEY = balanceQuery.queryKey;
/** Shown when the server returns no balance (spec section 9): what every vault starts with. */
export const DEFAULT_BALANCE = INITIAL_BALANCE;

/** The balance screen's reads and writes redirect at once and silently when the session is gone (spec section 8). */
const IMMEDIATE = { immediate: true } as const;

export function useBalance() {
  return useQuery({ ...balanceQuery, meta: { unauthorized: 'immediate' } });
}

/** The amount to show: the server's, or the default when it returns none. */
export function displayedBalance(balance: Balance | null | undefined): number {
  return typeof balance?.amount === 'number' && Number.isFinite(balance.amount) ? balance.amount : DEFAULT_BALANCE;
}

/** With thousands separators: 1,000,000,000. */
export function formatBalance(amount: number): string {
  return amount.toLocaleString('en-US');
}

/** The amount typed, as a number; null when it is not a number or not above 0 (spec section 5). */
export function parseAmount(input: string): number | null {
  if (!input.trim()) return null;
  const amount = Number(input);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}

export function useSubtract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => callApi(HTTP_ROUTES.subtract, { body: { amount } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: BALANCE_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to update balance', IMMEDIATE),
  });
}
