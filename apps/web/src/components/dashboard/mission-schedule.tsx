import { todayUtcDate, todayUtcWeekday, useApplyTemplates, useCompleteScheduleItem, useTodaySchedule } from '../../lib/schedule';
import { usePendingDeletes, withoutPending } from '../../lib/deferred-delete';
import { formatTime12h, sortByTime, useDayTemplates } from '../../lib/weekly-templates';
import { CalendarIcon, CheckIcon, ClockIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/**
 * MISSION SCHEDULE (spec section 2.5): today's uncompleted items, otherwise
 * today's weekday templates with "Apply Templates to Today", otherwise the empty text.
 */
export function MissionScheduleCard() {
  return (
    <Panel title="MISSION SCHEDULE" icon={<CalendarIcon />} accent="cyan">
      <MissionScheduleContent />
    </Panel>
  );
}

function MissionScheduleContent() {
  const date = todayUtcDate();
  const schedule = useTodaySchedule(date);
  const templates = useDayTemplates(todayUtcWeekday());
  // A template deleted a moment ago (UNDO still offered) is not offered here.
  const deletingTemplates = usePendingDeletes('template');
  const apply = useApplyTemplates('dashboard');
  const complete = useCompleteScheduleItem();
  const completingId = complete.isPending ? complete.variables : undefined;

  if (schedule.isPending) return <CardLoading>Loading today's missions...</CardLoading>;
  if (schedule.isError) return <LoadError error={schedule.error} onRetry={() => void schedule.refetch()} retrying={schedule.isFetching} />;

  const active = sortByTime(schedule.data.filter((item) => !item.completed));
  if (active.length > 0) {
    return (
      <ul className="space-y-3">
        {active.map((item) => (
          <li key={item.id} className="flex items-start gap-3 rounded-lg border-2 border-edge bg-vault-deep p-3">
            <span className="badge shrink-0 bg-hero-cyan text-black">{item.time}</span>
            <div className="min-w-0 flex-1">
              <p className="break-words font-semibold text-ink">{item.title}</p>
              {item.description ? <p className="mt-1 break-words text-sm text-muted">{item.description}</p> : null}
            </div>
            <button
              type="button"
              className="-my-1 flex h-10 w-10 shrink-0 items-center justify-center rounded-full border-2 border-hero-green text-hero-green transition-colors hover:bg-hero-green hover:text-black disabled:cursor-wait disabled:opacity-50"
              aria-label={`Complete ${item.title}`}
              title="Mark mission complete"
              disabled={completingId === item.id}
              onClick={() => complete.mutate(item.id)}
            >
              {/* Always drawn: a touch screen has no hover to reveal it. */}
              <CheckIcon />
            </button>
          </li>
        ))}
      </ul>
    );
  }

  if (templates.isPending) return <CardLoading>Loading templates...</CardLoading>;
  if (templates.isError) return <LoadError error={templates.error} onRetry={() => void templates.refetch()} retrying={templates.isFetching} />;
  const offered = withoutPending(templates.data, deletingTemplates);
  if (offered.length === 0) {
    return <EmptyState icon={<CalendarIcon />}>No Schedule Today - Create templates in SCHEDULE section, then apply them to today.</EmptyState>;
  }

  return (
    <div>
      <p className="mb-3 font-semibold text-muted">No active missions. Available templates:</p>
      <ul className="mb-4 space-y-2">
        {sortByTime(offered).map((template) => (
          <li key={template.id} className="flex items-center gap-3 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
            <span className="badge shrink-0 gap-1 bg-panel-2 text-hero-cyan">
              <ClockIcon />
              {formatTime12h(template.time)}
            </span>
            <span className="min-w-0 break-words text-ink">{template.title}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-yellow w-full sm:w-auto" disabled={apply.isPending} onClick={() => apply.mutate(date)}>
        <CalendarIcon />
        {apply.isPending ? 'Applying...' : 'Apply Templates to Today'}
      </button>
    </div>
  );
}
