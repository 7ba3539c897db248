import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, type CreateActivityBody } from '@vault/contracts';
import { callApi, routeUrl } from './api';
import { useDeferredDelete, type DeferredDelete } from './deferred-delete';
import { sameTitle, type Mission } from './missions';
import { routeQuery } from './route-query';
import { toast } from './toast';
import { toastFailure } from './unauthorized';

const activitiesQuery = routeQuery(HTTP_ROUTES.activities);
export const ACTIVITIES_KEY = activitiesQuery.queryKey;

export const ALREADY_EXISTS_TOAST = {
  title: 'Already Exists',
  description: 'This mission is already in your custom pool',
} as const;

export function useCustomMissions() {
  return useQuery(activitiesQuery);
}

/**
 * The create request (spec section 5): the title is required after trimming; the
 * description is trimmed and left out when blank. Null without a title.
 */
export function missionBody(title: string, description?: string | null): CreateActivityBody | null {
  const t = title.trim();
  if (!t) return null;
  const d = description?.trim();
  return d ? { title: t, description: d } : { title: t };
}

/** Whether a custom mission with this title exists already. */
export function isInCustomPool(custom: readonly Mission[] | undefined, title: string): boolean {
  return (custom ?? []).some((m) => sameTitle(m.title, title));
}

/** A 409 from the server: the title is taken. */
function isConflict(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('409');
}

/** Adds a mission to the custom pool (the plus button and the "Add New Mission" form). */
export function useCreateMission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateActivityBody) => callApi(HTTP_ROUTES.createActivity, { body }),
    onSuccess: async () => {
      toast({ title: 'Mission Added' });
      await queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY });
    },
    onError: async (error) => {
      if (isConflict(error)) {
        toast({ ...ALREADY_EXISTS_TOAST, variant: 'destructive' });
        // Another tab may have added it: show the pool as the server has it.
        await queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY });
        return;
      }
      toastFailure(error, 'Failed to add activity');
    },
  });
}

/** Removes a custom mission, with UNDO while its toast shows (see deferred-delete). */
export const MISSION_DELETE: DeferredDelete = {
  kind: 'mission',
  url: (id) => routeUrl(HTTP_ROUTES.deleteActivity, { id }),
  refresh: ACTIVITIES_KEY,
  toast: { title: 'Mission Removed' },
  failure: 'Failed to delete mission',
};

export function useDeleteMission(): (id: string) => void {
  return useDeferredDelete(MISSION_DELETE);
}
