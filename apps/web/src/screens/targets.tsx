import { useId, type FormEvent } from 'react';
import type { CreateTargetBody, Target } from '@vault/contracts';
import { useDraft } from '../lib/drafts';
import { formatDate, newTargetBody, targetStats, useCreateTarget, useTargets, useToggleTarget } from '../lib/targets';
import { TextAreaField, TextField } from '../components/form-fields';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { StatCard } from '../components/stat-card';
import { EmptyState, LoadError } from '../components/states';
import { ScreenLoading } from '../components/status-screens';
import { ActivityIcon, CheckIcon, SkullIcon, TargetIcon } from '../components/icons';

/** The target elimination system (spec section 2.10). */
export default function TargetsScreen() {
  const targetsQuery = useTargets();
  const createTarget = useCreateTarget('screen');
  const updateTarget = useToggleTarget();

  if (targetsQuery.isPending) {
    return <ScreenLoading title="LOADING TARGET SYSTEM..." detail="Scanning target database..." />;
  }

  const targets = targetsQuery.data ?? [];
  const stats = targetStats(targets);
  const active = targets.filter((t) => !t.completed);
  const eliminated = targets.filter((t) => t.completed);
  const updatingId = updateTarget.isPending ? updateTarget.variables?.id : undefined;
  const toggle = (target: Target) => updateTarget.mutate({ id: target.id, completed: !target.completed });
  // A failed read shows a dash, never a made-up zero.
  const count = (value: string) => (targetsQuery.isError ? '—' : value);

  return (
    <ScreenFrame title="Target Elimination System" subtitle="Identify objectives. Execute. Eliminate." icon={<TargetIcon />}>
      <dl className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard label="Active Targets" value={count(String(stats.active))} icon={<TargetIcon />} tone="red" />
        <StatCard label="Eliminated" value={count(String(stats.eliminated))} icon={<SkullIcon />} tone="green" />
        <StatCard label="Success Rate" value={count(`${stats.successRate}%`)} icon={<ActivityIcon />} tone="cyan" />
      </dl>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 lg:items-start">
        <NewTargetForm pending={createTarget.isPending} onCreate={(input, reset) => createTarget.mutate(input, { onSuccess: reset })} />

        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Panel title="Active Targets" icon={<TargetIcon />} accent="red">
            {targetsQuery.isError ? (
              <LoadError error={targetsQuery.error} onRetry={() => void targetsQuery.refetch()} retrying={targetsQuery.isFetching} />
            ) : active.length === 0 ? (
              <EmptyState icon={<TargetIcon />}>No active targets</EmptyState>
            ) : (
              <ul className="space-y-3">
                {active.map((target) => (
                  <TargetRow key={target.id} target={target} busy={updatingId === target.id} onToggle={toggle} />
                ))}
              </ul>
            )}
          </Panel>

          {eliminated.length > 0 ? (
            <Panel title="Eliminated Targets" icon={<SkullIcon />} accent="green">
              <ul className="space-y-3">
                {eliminated.map((target) => (
                  <TargetRow key={target.id} target={target} busy={updatingId === target.id} onToggle={toggle} />
                ))}
              </ul>
            </Panel>
          ) : null}
        </div>
      </div>
    </ScreenFrame>
  );
}

function NewTargetForm({ pending, onCreate }: { pending: boolean; onCreate: (input: CreateTargetBody, reset: () => void) => void }) {
  // Kept on the device as it is typed, until it is marked (see drafts).
  const [draft, setDraft, discard] = useDraft('targets.new', { title: '', description: '' });
  const { title, description } = draft;
  const setTitle = (value: string) => setDraft((current) => ({ ...current, title: value }));
  const setDescription = (value: string) => setDraft((current) => ({ ...current, description: value }));
  const body = newTargetBody(title, description);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || pending) return;
    onCreate(body, discard);
  }

  return (
    <Panel title="Mark New Target" icon={<TargetIcon />} accent="yellow">
      <form className="space-y-4" onSubmit={onSubmit}>
        <TextField label="Target Objective" value={title} onChange={setTitle} placeholder="What must be eliminated?" required />
        <TextAreaField
          label="Strategic Notes"
          className="min-h-28"
          value={description}
          onChange={setDescription}
          placeholder="Tactics, intel, deadlines (optional)"
        />
        <button type="submit" className="btn btn-red w-full" disabled={!body || pending}>
          <TargetIcon />
          {pending ? 'Marking...' : 'Mark Target'}
        </button>
      </form>
    </Panel>
  );
}

function TargetRow({ target, busy, onToggle }: { target: Target; busy: boolean; onToggle: (target: Target) => void }) {
  const checkboxId = useId();
  const done = target.completed;
  return (
    <li
      className={[
        'flex items-start gap-4 rounded-lg border-2 p-4',
        done ? 'border-edge bg-vault-deep/60' : 'border-edge bg-vault-deep hover:border-hero-red/70',
      ].join(' ')}
    >
      <input
        id={checkboxId}
        type="checkbox"
        className="mt-1 h-5 w-5 shrink-0 cursor-pointer disabled:cursor-wait"
        checked={done}
        disabled={busy}
        onChange={() => onToggle(target)}
        aria-label={`${done ? 'Reactivate' : 'Complete'} ${target.title}`}
      />
      <div className="min-w-0 flex-1">
        <label
          htmlFor={checkboxId}
          className={['block cursor-pointer break-words font-semibold', done ? 'text-muted line-through decoration-hero-red decoration-2' : 'text-ink'].join(
            ' ',
          )}
        >
          {target.title}
        </label>
        {target.description ? (
          <p className={['mt-1 whitespace-pre-wrap break-words text-sm text-muted', done ? 'line-through' : ''].join(' ')}>{target.description}</p>
        ) : null}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <span>Marked: {formatDate(target.createdAt)}</span>
          {done && target.completedAt ? <span>Eliminated: {formatDate(target.completedAt)}</span> : null}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-2">
        {done ? (
          <span className="badge bg-hero-green text-black">
            <CheckIcon className="mr-1" />
            ELIMINATED
          </span>
        ) : (
          <span className="badge bg-hero-yellow text-black">ACTIVE</span>
        )}
      </div>
    </li>
  );
}
