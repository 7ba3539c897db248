import { HTTP_ROUTES } from '@vault/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from './api';
import { markVaultGone } from './farewell';
import { navigation } from './navigation';
import { withReauthentication } from './reauthentication';
import { USER_KEY } from './session';
import { toast, TOAST_LONG_DURATION_MS } from './toast';
import { toastFailure } from './unauthorized';

/** Texts of the settings panel (spec section 2.4). */
export const GLOBAL_ACCESS_CONFIRM = 'Enable global access? This will allow anyone to access the entire site without authentication.';
export const SELF_DESTRUCT_ARMED_TEXT = 'CONFIRMATION: Click again to execute.';
export const SELF_DESTRUCT_FINAL_WARNING =
  'FINAL WARNING: This will permanently erase ALL data including journal entries, targets, schedules, and photos. This action cannot be undone. Proceed with Perfect Cell?';

export const GLOBAL_ACCESS_ENDPOINT = HTTP_ROUTES.enableGlobalAccess.path;
export const SELF_DESTRUCT_ENDPOINT = HTTP_ROUTES.selfDestruct.path;
/** After the success toast the page goes to the login route, / (spec section 9). */
export const SELF_DESTRUCT_REDIRECT_DELAY_MS = 3000;
export const LOGIN_ROUTE = '/';

/** TO THE MOON: opens the whole vault to everyone. The current user's `globalAccess` follows. */
export function useActivateGlobalAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withReauthentication(() => callApi(HTTP_ROUTES.enableGlobalAccess)),
    onSuccess: async () => {
      toast({ title: 'To The Moon Activated' });
      await queryClient.invalidateQueries({ queryKey: USER_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to activate global access'),
  });
}

/** Turns global access off again, so the vault requires sign-in. */
export function useDeactivateGlobalAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(HTTP_ROUTES.disableGlobalAccess),
    onSuccess: async () => {
      toast({ title: 'Global Access Disabled', description: 'The vault requires sign-in again.' });
      await queryClient.invalidateQueries({ queryKey: USER_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to deactivate global access'),
  });
}

/**
 * PERFECT CELL: erases everything. Once the server confirms, the page shows
 * the farewell page at once, under the spec's toast, and holds nothing of the
 * erased vault any more (markVaultGone). The spec's redirect to login after
 * 3 s goes to /, the route of the login screen, without leaving the page:
 * the login endpoint of a destroyed vault answers 410 with a bare text body,
 * which must never become the page, and / shows the farewell page anyway.
 */
export function useSelfDestruct() {
  return useMutation({
    mutationFn: () => withReauthentication(() => callApi(HTTP_ROUTES.selfDestruct)),
    onSuccess: () => {
      toast({
        title: 'Perfect Cell Initiated',
        description: 'All data has been permanently erased. Vault is now empty.',
        duration: TOAST_LONG_DURATION_MS,
      });
      markVaultGone();
      setTimeout(() => navigation.replaceUrl(LOGIN_ROUTE), SELF_DESTRUCT_REDIRECT_DELAY_MS);
    },
    onError: (error) => toastFailure(error, 'Self-destruct sequence failed'),
  });
}
