import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, type CreateTargetBody, type Target } from '@vault/contracts';
import { callApi } from './api';
import { toast } from './toast';
import { toastFailure } from './unauthorized';
import { enUsDateFormat } from './date-format';
import { routeQuery } from './route-query';

const targetsQuery = routeQuery(HTTP_ROUTES.targets);
export const TARGETS_KEY = targetsQuery.queryKey;
const TOGGLE_TARGET_KEY = ['toggle-target'] as const;

/** Success rate in whole percent: eliminated / all targets, 0 when there are none. */
export function successRate(eliminated: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((eliminated / total) * 100);
}

export interface TargetStats {
  active: number;
  eliminated: number;
  total: number;
  successRate: number;
}

export function targetStats(targets: readonly Target[]): TargetStats {
  const eliminated = targets.filter((t) => t.completed).length;
  const total = targets.length;
  return { active: total - eliminated, eliminated, total, successRate: successRate(eliminated, total) };
}

/** A short en-US date, e.g. "Nov 22, 2025"; empty when missing or invalid. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return SHORT_DATE.format(date);
}

const SHORT_DATE = enUsDateFormat({ year: 'numeric', month: 'short', day: 'numeric' });

/** The target list, shared by the targets screen and the dashboard. */
export function useTargets() {
  return useQuery(targetsQuery);
}

/** The request body for a new target (spec section 5); null when the title is blank. */
export function newTargetBody(title: string, description = ''): CreateTargetBody | null {
  const trimmedTitle = title.trim();
  if (!trimmedTitle) return null;
  const notes = description.trim();
  return notes ? { title: trimmedTitle, description: notes } : { title: trimmedTitle };
}

/**
 * Marks a new target. The two places that do it word their toasts differently
 * (spec section 8): the targets screen explains, the dashboard is terse.
 */
export function useCreateTarget(place: 'screen' | 'dashboard') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTargetBody) => callApi(HTTP_ROUTES.createTarget, { body }),
    onSuccess: async () => {
      toast(place === 'screen' ? { title: 'Target Marked', description: 'New target added to elimination list' } : { title: 'Target Marked' });
      await queryClient.invalidateQueries({ queryKey: TARGETS_KEY });
    },
    onError: (error) => toastFailure(error, place === 'screen' ? 'Failed to create target' : 'Failed to add target'),
  });
}

/**
 * Ticks (eliminates) or unticks (reactivates) a target. The box ticks at once
 * (the cached list is changed before the call); if the server refuses, the
 * list is put back as it was and the failure toast says so. Either way the
 * list is read again afterwards.
 */
export function useToggleTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: TOGGLE_TARGET_KEY,
    mutationFn: ({ id, completed }: { id: string; completed: boolean }) => callApi(HTTP_ROUTES.updateTarget, { params: { id }, body: { completed } }),
    onMutate: async ({ id, completed }) => {
      // A read on its way would overwrite the tick with the old state.
      await queryClient.cancelQueries({ queryKey: TARGETS_KEY });
      const previous = queryClient.getQueryData(TARGETS_KEY);
      queryClient.setQueryData(TARGETS_KEY, (list) => list?.map((target) => (target.id === id ? { ...target, completed } : target)));
      return { previous };
    },
    onSuccess: (_target, { completed }) => {
      toast(
        completed
          ? { title: 'Target Eliminated', description: 'Objective successfully completed' }
          : { title: 'Target Reactivated', description: 'Target marked as active again' },
      );
    },
    onError: (error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(TARGETS_KEY, context.previous);
      toastFailure(error, 'Failed to update target');
    },
    // Read the list once the last of several quick ticks is answered: an earlier
    // read would bring back, for a moment, the old state of the ones still on their way.
    onSettled: async () => {
      if (queryClient.isMutating({ mutationKey: TOGGLE_TARGET_KEY }) === 1) {
        await queryClient.invalidateQueries({ queryKey: TARGETS_KEY });
      }
    },
  });
}
