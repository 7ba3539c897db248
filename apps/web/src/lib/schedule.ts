import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES } from '@vault/contracts';
import { callApi } from './api';
import { toast } from './toast';
import { resourceKey, routeQuery } from './route-query';
import { toastFailure } from './unauthorized';
import { WEEKLY_TEMPLATES_KEY } from './weekly-templates';

/** Every day's schedule. */
export const SCHEDULE_KEY = resourceKey(HTTP_ROUTES.schedule);

/** Today as YYYY-MM-DD from the UTC date (spec section 7). */
export function todayUtcDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The weekday (0 is Sunday) of that same UTC date, whose templates apply to it. */
export function todayUtcWeekday(now: Date = new Date()): number {
  return now.getUTCDay();
}

function scheduleQuery(date: string) {
  return routeQuery(HTTP_ROUTES.schedule, { params: { date } });
}

export function scheduleKey(date: string) {
  return scheduleQuery(date).queryKey;
}

/** Today's schedule items (GET /api/schedule/{date}). */
export function useTodaySchedule(date: string = todayUtcDate()) {
  return useQuery(scheduleQuery(date));
}

/**
 * Copies the weekday's templates into today's schedule. The dashboard and the
 * weekly schedule screen word their toasts differently (spec section 8).
 */
export function useApplyTemplates(place: 'dashboard' | 'weekly') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (date: string) => callApi(HTTP_ROUTES.applyWeeklyTemplate, { body: { date } }),
    onSuccess: async () => {
      toast({ title: place === 'dashboard' ? 'Templates Applied' : 'Template Applied' });
      await queryClient.invalidateQueries({ queryKey: SCHEDULE_KEY });
    },
    onError: (error) => toastFailure(error, place === 'dashboard' ? 'Failed to apply templates' : 'Failed to apply template'),
  });
}

/**
 * Completes a schedule item (the dashboard's circle button); one way only. The
 * server deletes a one-time template when its item completes, so the templates
 * are refetched too.
 */
export function useCompleteScheduleItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(HTTP_ROUTES.completeScheduleItem, { params: { id }, body: { completed: true } }),
    onSuccess: async () => {
      toast({ title: 'Mission Complete' });
      await Promise.all([queryClient.invalidateQueries({ queryKey: SCHEDULE_KEY }), queryClient.invalidateQueries({ queryKey: WEEKLY_TEMPLATES_KEY })]);
    },
    onError: (error) => toastFailure(error, 'Failed to complete mission'),
  });
}
