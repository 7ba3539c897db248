import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, type CreateStudyBody, type Study } from '@vault/contracts';
import { callApi, routeUrl } from './api';
import { useDeferredDelete, type DeferredDelete } from './deferred-delete';
import { toast } from './toast';
import { toastFailure } from './unauthorized';
import { enUsDateFormat } from './date-format';
import { routeQuery } from './route-query';

const studiesQuery = routeQuery(HTTP_ROUTES.studies);
/** Under STUDIES_KEY (routeKey), so refreshing the studies also refreshes the archive. */
const completedStudiesQuery = routeQuery(HTTP_ROUTES.completedStudies);
export const STUDIES_KEY = studiesQuery.queryKey;
export const COMPLETED_STUDIES_KEY = completedStudiesQuery.queryKey;

/** Today's (active) studies for the dashboard card. */
export function useStudies() {
  return useQuery(studiesQuery);
}

/** Completed studies for the archive. */
export function useCompletedStudies() {
  return useQuery(completedStudiesQuery);
}

/** Both fields are required after trimming (spec section 5). */
export function studyBody(subject: string, endGoal: string): CreateStudyBody | null {
  const s = subject.trim();
  const g = endGoal.trim();
  return s && g ? { subject: s, endGoal: g } : null;
}

export function useCreateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStudyBody) => callApi(HTTP_ROUTES.createStudy, { body }),
    onSuccess: async () => {
      toast({ title: 'Study Added' });
      await queryClient.invalidateQueries({ queryKey: STUDIES_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to add study'),
  });
}

/** Ticks a study off: it moves to the archive (one way only). */
export function useCompleteStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(HTTP_ROUTES.completeStudy, { params: { id }, body: { completed: true } }),
    onSuccess: async () => {
      toast({ title: 'Study Completed', description: 'Study moved to the archive' });
      // STUDIES_KEY also covers the archive's completed list.
      await queryClient.invalidateQueries({ queryKey: STUDIES_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to complete study'),
  });
}

/** Deletes a study, with UNDO while its toast shows (see deferred-delete). */
export const STUDY_DELETE: DeferredDelete = {
  kind: 'study',
  url: (id) => routeUrl(HTTP_ROUTES.deleteStudy, { id }),
  refresh: STUDIES_KEY,
  toast: { title: 'Study Deleted' },
  failure: 'Failed to delete study',
};

export function useDeleteStudy(): (id: string) => void {
  return useDeferredDelete(STUDY_DELETE);
}

export const UNKNOWN_GROUP = 'Unknown';

export interface StudyGroup {
  /** "MARCH 2025", or "Unknown" for studies without a completion date. */
  label: string;
  studies: Study[];
}

function completedTime(study: Study): number {
  const time = study.completedAt ? Date.parse(study.completedAt) : Number.NaN;
  return Number.isNaN(time) ? Number.NaN : time;
}

/**
 * The archive's month groups (spec section 2.11): by month and year of
 * completion, newest group first and newest study first within a group; studies
 * without a completion date last, in the "Unknown" group.
 */
export function groupByMonth(studies: readonly Study[]): StudyGroup[] {
  const dated = studies.filter((s) => !Number.isNaN(completedTime(s)));
  const undated = studies.filter((s) => Number.isNaN(completedTime(s)));
  dated.sort((a, b) => completedTime(b) - completedTime(a));

  const groups: StudyGroup[] = [];
  for (const study of dated) {
    const label = MONTH_LABEL.format(completedTime(study)).toUpperCase();
    const last = groups.at(-1);
    if (last?.label === label) last.studies.push(study);
    else groups.push({ label, studies: [study] });
  }
  if (undated.length > 0) groups.push({ label: UNKNOWN_GROUP, studies: undated });
  return groups;
}

export interface ArchiveSummary {
  completed: number;
  uniqueSubjects: number;
  activeMonths: number;
}

export function archiveSummary(studies: readonly Study[]): ArchiveSummary {
  return {
    completed: studies.length,
    uniqueSubjects: new Set(studies.map((s) => s.subject)).size,
    activeMonths: groupByMonth(studies).length,
  };
}

/** "November 22, 2026 at 4:05 AM" (long en-US date with time), or "Unknown date". */
export function formatCompletedAt(value: string | null | undefined): string {
  const time = value ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) return 'Unknown date';
  return (
    COMPLETED_AT.format(time)
      // Some ICU versions put a narrow no-break space before AM/PM.
      .replace(/[\u202f\u00a0]/g, ' ')
  );
}

const MONTH_LABEL = enUsDateFormat({ month: 'long', year: 'numeric' });
const COMPLETED_AT = enUsDateFormat({
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
