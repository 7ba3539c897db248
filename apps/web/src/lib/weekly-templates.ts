import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, type CreateWeeklyTemplateBody, type UpdateWeeklyTemplateBody, type WeeklyTemplate } from '@vault/contracts';
import { callApi, routeUrl } from './api';
import { useDeferredDelete, type DeferredDelete } from './deferred-delete';
import { toast } from './toast';
import { routeQuery } from './route-query';
import { toastFailure } from './unauthorized';

export interface Weekday {
  value: number;
  short: string;
  name: string;
}

/** The seven day tabs, Monday first; Sunday's value is 0 (spec section 2.8). */
export const WEEKDAYS: readonly Weekday[] = [
  { value: 1, short: 'MON', name: 'Monday' },
  { value: 2, short: 'TUE', name: 'Tuesday' },
  { value: 3, short: 'WED', name: 'Wednesday' },
  { value: 4, short: 'THU', name: 'Thursday' },
  { value: 5, short: 'FRI', name: 'Friday' },
  { value: 6, short: 'SAT', name: 'Saturday' },
  { value: 0, short: 'SUN', name: 'Sunday' },
];

export const DEFAULT_WEEKDAY = 1;

export function weekdayName(value: number): string {
  return WEEKDAYS.find((d) => d.value === value)?.name ?? '';
}

const weeklyTemplatesQuery = routeQuery(HTTP_ROUTES.weeklyTemplates);
export const WEEKLY_TEMPLATES_KEY = weeklyTemplatesQuery.queryKey;

/** Every template (the weekly schedule screen filters them per tab). */
export function useWeeklyTemplates() {
  return useQuery(weeklyTemplatesQuery);
}

/** The templates of one weekday (GET /api/weekly-templates/{dayOfWeek}). */
export function useDayTemplates(dayOfWeek: number) {
  return useQuery(routeQuery(HTTP_ROUTES.weeklyTemplatesForDay, { params: { dayOfWeek: String(dayOfWeek) } }));
}

/** "13:05" as "1:05 PM"; hour 0 is 12 AM. Anything that is not HH:MM is shown as it is. */
export function formatTime12h(time: string): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!match) return time;
  const hours = Number(match[1]);
  if (hours > 23 || Number(match[2]) > 59) return time;
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${suffix}`;
}

/** A day's templates, earliest first. */
export function sortByTime<T extends { time: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.time.localeCompare(b.time));
}

export interface TemplateDraft {
  title: string;
  time: string;
  description: string;
  isRepeating: boolean;
}

/**
 * The request for a draft, whole (an edit sends every field, isRepeating
 * included); null while the title is blank or no time is chosen (spec section 5).
 */
export function templateBody(draft: TemplateDraft, dayOfWeek: number): UpdateWeeklyTemplateBody | null {
  const title = draft.title.trim();
  if (!title || !draft.time) return null;
  return { title, description: draft.description.trim(), time: draft.time, isRepeating: draft.isRepeating, dayOfWeek };
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWeeklyTemplateBody) => callApi(HTTP_ROUTES.createWeeklyTemplate, { body }),
    onSuccess: async () => {
      toast({ title: 'Template Created' });
      await queryClient.invalidateQueries({ queryKey: WEEKLY_TEMPLATES_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to create template'),
  });
}

/** Saves an edited template (its edit form's "Save Changes"): the whole template is sent. */
export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWeeklyTemplateBody }) => callApi(HTTP_ROUTES.updateWeeklyTemplate, { params: { id }, body }),
    onSuccess: async () => {
      toast({ title: 'Template Updated' });
      await queryClient.invalidateQueries({ queryKey: WEEKLY_TEMPLATES_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to update template'),
  });
}

/** The edit form's starting point: the template as saved. */
export function templateDraftOf(template: WeeklyTemplate): TemplateDraft {
  return { title: template.title, time: template.time, description: template.description ?? '', isRepeating: template.isRepeating };
}

/** How a row says whether it comes back every week. */
export function repeatLabel(template: Pick<WeeklyTemplate, 'isRepeating'>): string {
  return template.isRepeating ? 'WEEKLY' : 'ONE-TIME';
}

/** Deletes a template, with UNDO while its toast shows (see deferred-delete). */
export const TEMPLATE_DELETE: DeferredDelete = {
  kind: 'template',
  url: (id) => routeUrl(HTTP_ROUTES.deleteWeeklyTemplate, { id }),
  refresh: WEEKLY_TEMPLATES_KEY,
  toast: { title: 'Template Deleted' },
  failure: 'Failed to delete template',
};

export function useDeleteTemplate(): (id: string) => void {
  return useDeferredDelete(TEMPLATE_DELETE);
}
