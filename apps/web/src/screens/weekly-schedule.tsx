import { useId, useState, type FormEvent } from 'react';
import type { ScheduleItem, WeeklyTemplate } from '@vault/contracts';
import { DayTabs, dayTabId } from '../components/day-tabs';
import { TextAreaField, TextField } from '../components/form-fields';
import { CalendarIcon, ClockIcon, PencilIcon, PlusIcon, SaveIcon, TrashIcon } from '../components/icons';
import { usePendingDeletes, withoutPending } from '../lib/deferred-delete';
import { useDraft } from '../lib/drafts';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { EmptyState, LoadError } from '../components/states';
import { ScreenLoading } from '../components/status-screens';
import { todayUtcDate, todayUtcWeekday, useApplyTemplates, useTodaySchedule } from '../lib/schedule';
import {
  DEFAULT_WEEKDAY,
  formatTime12h,
  repeatLabel,
  sortByTime,
  templateBody,
  templateDraftOf,
  useCreateTemplate,
  useDeleteTemplate,
  useUpdateTemplate,
  useWeeklyTemplates,
  weekdayName,
  type TemplateDraft,
} from '../lib/weekly-templates';

/** Weekly schedule templates (spec section 2.8). */
export default function WeeklyScheduleScreen() {
  const templates = useWeeklyTemplates();
  const schedule = useTodaySchedule();
  const apply = useApplyTemplates('weekly');
  const remove = useDeleteTemplate();
  // Templates deleted a moment ago, while UNDO is offered, are out of the list.
  const deleting = usePendingDeletes('template');
  const [editingId, setEditingId] = useState<string | null>(null);
  const [day, setDay] = useState(DEFAULT_WEEKDAY);
  const idPrefix = useId();
  const panelId = `${idPrefix}-panel`;

  if (templates.isPending) return <ScreenLoading title="LOADING WEEKLY SCHEDULE..." />;

  const dayTemplates = templates.data ? sortByTime(withoutPending(templates.data, deleting).filter((t) => t.dayOfWeek === day)) : [];
  const todaysItems = day === todayUtcWeekday() ? (schedule.data ?? []) : [];

  return (
    <ScreenFrame title="WEEKLY SCHEDULE TEMPLATES" subtitle="Create different schedules for each day of the week" icon={<CalendarIcon />}>
      {/* ADD TEMPLATE comes first in the page, so a phone shows it (and a keyboard reaches it)
          before a long list; from 1024 px it is the side panel on the right. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 lg:items-start">
        <AddTemplatePanel day={day} className="lg:col-start-3 lg:row-start-1" />
        <Panel
          title="WEEKLY TEMPLATES"
          icon={<CalendarIcon />}
          className="lg:col-span-2 lg:col-start-1 lg:row-start-1"
          actions={
            <button type="button" className="btn btn-yellow min-h-9 px-3 py-1 text-xs" disabled={apply.isPending} onClick={() => apply.mutate(todayUtcDate())}>
              <CalendarIcon />
              {apply.isPending ? 'Applying...' : 'Apply to Today'}
            </button>
          }
        >
          <DayTabs idPrefix={idPrefix} panelId={panelId} value={day} onChange={setDay} />
          <div id={panelId} role="tabpanel" aria-labelledby={dayTabId(idPrefix, day)}>
            {templates.isError ? (
              <LoadError error={templates.error} onRetry={() => void templates.refetch()} retrying={templates.isFetching} />
            ) : dayTemplates.length === 0 ? (
              <EmptyState icon={<CalendarIcon />} hint="Add your first template to get started">
                No templates for {weekdayName(day)}
              </EmptyState>
            ) : (
              <ul className="space-y-3" aria-label={`${weekdayName(day)} templates`}>
                {dayTemplates.map((template) =>
                  template.id === editingId ? (
                    <TemplateEditor key={template.id} template={template} onDone={() => setEditingId(null)} />
                  ) : (
                    <TemplateRow key={template.id} template={template} onEdit={() => setEditingId(template.id)} onDelete={() => remove(template.id)} />
                  ),
                )}
              </ul>
            )}
            {todaysItems.length > 0 ? <TodaysMissionLog items={todaysItems} /> : null}
          </div>
        </Panel>
      </div>
    </ScreenFrame>
  );
}

function TodaysMissionLog({ items }: { items: ScheduleItem[] }) {
  const headingId = useId();
  return (
    <section className="mt-6" aria-labelledby={headingId}>
      <h3 id={headingId} className="comic-heading mb-3 text-base text-hero-green">
        Today's Mission Log
      </h3>
      <ul className="space-y-2">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-start gap-x-3 gap-y-1 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
            <span className="font-mono text-xs leading-6 text-muted">{item.time}</span>
            <span className={`badge ml-auto sm:order-last ${item.completed ? 'bg-hero-green text-black' : 'bg-hero-yellow text-black'}`}>
              {item.completed ? 'COMPLETED' : 'ACTIVE'}
            </span>
            <div className={`order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1 ${item.completed ? 'text-muted line-through' : 'text-ink'}`}>
              <p className="break-words font-semibold">{item.title}</p>
              {item.description ? <p className="break-words text-sm">{item.description}</p> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One template: its time, whether it repeats, its text, and its edit and delete buttons. */
function TemplateRow({ template, onEdit, onDelete }: { template: WeeklyTemplate; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex items-start gap-3 rounded-lg border-2 border-edge bg-vault-deep p-3">
      <div className="flex min-w-0 flex-1 flex-col items-start gap-2 sm:flex-row sm:gap-3">
        <div className="flex shrink-0 flex-wrap gap-2 sm:flex-col">
          <span className="badge gap-1 bg-hero-cyan text-black">
            <ClockIcon />
            {formatTime12h(template.time)}
          </span>
          <span
            className={`badge ${template.isRepeating ? 'bg-hero-green text-black' : 'bg-panel-2 text-ink'}`}
            title={template.isRepeating ? 'Comes back every week' : 'Deleted after its mission is completed'}
          >
            {repeatLabel(template)}
          </span>
        </div>
        <div className="min-w-0">
          <p className="break-words font-semibold text-ink">{template.title}</p>
          {template.description ? <p className="mt-1 break-words text-sm text-muted">{template.description}</p> : null}
        </div>
      </div>
      <div className="-my-1 flex shrink-0">
        <button
          type="button"
          className="flex h-10 w-10 items-center justify-center rounded-md text-lg text-muted hover:bg-panel-2 hover:text-hero-cyan"
          aria-label={`Edit ${template.title}`}
          title="Edit template"
          onClick={onEdit}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="flex h-10 w-10 items-center justify-center rounded-md text-lg text-muted hover:bg-hero-red-deep/20 hover:text-hero-red"
          aria-label={`Delete ${template.title}`}
          title="Delete template"
          onClick={onDelete}
        >
          <TrashIcon />
        </button>
      </div>
    </li>
  );
}

/** The fields of a template, for a new one and for an edit. */
function TemplateFields({ draft, update }: { draft: TemplateDraft; update: (patch: Partial<TemplateDraft>) => void }) {
  const repeatingId = useId();
  return (
    <>
      <TextField label="Title" placeholder="Morning briefing..." value={draft.title} onChange={(title) => update({ title })} />
      <TextField label="Time" type="time" value={draft.time} onChange={(time) => update({ time })} />
      <TextAreaField
        label="Description"
        className="min-h-24"
        placeholder="Template objectives..."
        value={draft.description}
        onChange={(description) => update({ description })}
      />
      <div className="flex items-start gap-3">
        <input
          id={repeatingId}
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer"
          checked={draft.isRepeating}
          onChange={(e) => update({ isRepeating: e.target.checked })}
        />
        <label htmlFor={repeatingId} className="cursor-pointer text-sm text-ink">
          Repeating weekly (uncheck for one-time missions that delete after completion)
        </label>
      </div>
    </>
  );
}

/** Inline edit of one template; what is typed is kept on the device until saved or cancelled. */
function TemplateEditor({ template, onDone }: { template: WeeklyTemplate; onDone: () => void }) {
  const [draft, setDraft, discard] = useDraft(`weekly.edit.${template.id}`, templateDraftOf(template));
  const save = useUpdateTemplate();
  const body = templateBody(draft, template.dayOfWeek);
  const update = (patch: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...patch }));

  function close() {
    discard();
    onDone();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || save.isPending) return;
    save.mutate({ id: template.id, body }, { onSuccess: close });
  }

  return (
    <li className="rounded-lg border-2 border-hero-cyan bg-vault-deep p-3">
      <form className="space-y-3" onSubmit={onSubmit} aria-label={`Edit ${template.title}`}>
        <TemplateFields draft={draft} update={update} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-ghost" onClick={close} disabled={save.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn-red" disabled={!body || save.isPending}>
            <SaveIcon />
            {save.isPending ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </li>
  );
}

const EMPTY_DRAFT: TemplateDraft = { title: '', time: '', description: '', isRepeating: true };

function AddTemplatePanel({ day, className }: { day: number; className?: string }) {
  // Kept on the device as it is typed, until it is created (see drafts).
  const [draft, setDraft, discard] = useDraft('weekly.new', EMPTY_DRAFT);
  const create = useCreateTemplate();
  const body = templateBody(draft, day);
  const update = (patch: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...patch }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate(body, { onSuccess: discard });
  }

  return (
    <Panel title="ADD TEMPLATE" subtitle={`For ${weekdayName(day)}`} icon={<PlusIcon />} accent="yellow" className={className}>
      <form className="space-y-4" onSubmit={onSubmit}>
        <TemplateFields draft={draft} update={update} />
        <button type="submit" className="btn btn-red w-full" disabled={!body || create.isPending}>
          <PlusIcon />
          {create.isPending ? 'Creating...' : 'Create Template'}
        </button>
      </form>
    </Panel>
  );
}
