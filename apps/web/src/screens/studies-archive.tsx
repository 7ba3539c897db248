import { ArchiveIcon, CalendarIcon, CapIcon, CheckIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { StatCard } from '../components/stat-card';
import { EmptyState, LoadError } from '../components/states';
import { ScreenLoading } from '../components/status-screens';
import { archiveSummary, formatCompletedAt, groupByMonth, useCompletedStudies } from '../lib/studies';

/** Completed studies by month (spec section 2.11). */
export default function StudiesArchiveScreen() {
  const studies = useCompletedStudies();

  if (studies.isPending) return <ScreenLoading title="INITIALIZING ARCHIVE..." detail="Loading archive..." />;

  const list = studies.data ?? [];
  const summary = archiveSummary(list);
  const groups = groupByMonth(list);
  const count = (n: number) => (studies.isError ? '—' : String(n));

  return (
    <ScreenFrame title="STUDIES ARCHIVE" subtitle="Every completed study, by month" icon={<ArchiveIcon />}>
      <dl className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard label="Completed Studies" value={count(summary.completed)} icon={<CheckIcon />} tone="green" />
        <StatCard label="Unique Subjects" value={count(summary.uniqueSubjects)} icon={<CapIcon />} tone="cyan" />
        <StatCard label="Active Months" value={count(summary.activeMonths)} icon={<CalendarIcon />} tone="yellow" />
      </dl>

      {studies.isError ? (
        <LoadError error={studies.error} onRetry={() => void studies.refetch()} retrying={studies.isFetching} />
      ) : groups.length === 0 ? (
        <div className="panel p-6">
          <EmptyState icon={<ArchiveIcon />} hint="Complete studies from the dashboard's TODAY'S STUDIES card to fill the archive.">
            No completed studies yet
          </EmptyState>
        </div>
      ) : (
        <div className="space-y-6">
          {groups.map((group) => (
            <Panel key={group.label} title={group.label} icon={<CalendarIcon />} accent="yellow" className="[&_h2]:uppercase">
              <ul className="space-y-3">
                {group.studies.map((study) => (
                  <li key={study.id} className="rounded-lg border-2 border-edge bg-vault-deep p-4">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="break-words font-semibold text-ink">{study.subject}</p>
                      <span className="badge bg-hero-green text-black">COMPLETED</span>
                    </div>
                    <p className="mt-1 break-words text-sm text-muted">Goal: {study.endGoal}</p>
                    <p className="mt-1 text-xs text-muted">Completed: {formatCompletedAt(study.completedAt)}</p>
                  </li>
                ))}
              </ul>
            </Panel>
          ))}
        </div>
      )}
    </ScreenFrame>
  );
}
