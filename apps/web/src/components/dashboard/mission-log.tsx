import { todayUtcDate, useTodaySchedule } from '../../lib/schedule';
import { sortByTime } from '../../lib/weekly-templates';
import { CheckIcon, FlagIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/** MISSION LOG (spec section 2.5): today's completed schedule items. */
export function MissionLogCard() {
  const schedule = useTodaySchedule(todayUtcDate());
  const completed = schedule.data ? sortByTime(schedule.data.filter((item) => item.completed)) : [];

  return (
    <Panel title="MISSION LOG" icon={<FlagIcon />} accent="green">
      {schedule.isPending ? (
        <CardLoading />
      ) : schedule.isError ? (
        <LoadError error={schedule.error} onRetry={() => void schedule.refetch()} retrying={schedule.isFetching} />
      ) : completed.length === 0 ? (
        <EmptyState icon={<FlagIcon />}>No recent mission activity</EmptyState>
      ) : (
        <ul className="space-y-2">
          {completed.map((item) => (
            <li key={item.id} className="flex items-start gap-3 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
              <CheckIcon className="mt-1 shrink-0 text-hero-green" />
              <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
                <span className="min-w-0 break-words text-ink sm:flex-1">Mission Completed: {item.title}</span>
                <span className="flex shrink-0 items-center gap-2">
                  <span className="font-mono text-xs text-muted">{item.time}</span>
                  <span className="badge bg-hero-green text-black">COMPLETE</span>
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
