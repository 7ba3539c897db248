import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Target } from '@vault/contracts';
import { apiJson } from '../lib/api';
import { TARGETS_KEY, formatDate, targetStats } from '../lib/targets';
import { toast } from '../lib/toast';
import { handleUnauthorized } from '../lib/unauthorized';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { ScreenLoading } from '../components/status-screens';
import { ActivityIcon, CheckIcon, SkullIcon, TargetIcon } from '../components/icons';

interface CreateTargetInput {
  title: string;
  description?: string;
}

interface UpdateTargetInput {
  id: string;
  completed: boolean;
}

function showError(error: unknown, description: string): void {
  if (handleUnauthorized(error)) return;
  toast({ title: 'Error', description, variant: 'destructive' });
}

/** The target elimination system (spec section 2.10). */
export default function TargetsScreen() {
  const queryClient = useQueryClient();
  const targetsQuery = useQuery<Target[]>({ queryKey: TARGETS_KEY });

  useEffect(() => {
    if (targetsQuery.error) handleUnauthorized(targetsQuery.error);
  }, [targetsQuery.error]);

  const createTarget = useMutation({
    mutationFn: (body: CreateTargetInput) => apiJson<Target>('POST', '/api/targets', body),
    onSuccess: async () => {
      toast({ title: 'Target Marked', description: 'New target added to elimination list' });
      await queryClient.invalidateQueries({ queryKey: TARGETS_KEY });
    },
    onError: (error) => showError(error, 'Failed to create target'),
  });

  const updateTarget = useMutation({
    mutationFn: ({ id, completed }: UpdateTargetInput) =>
      apiJson<Target>('PATCH', `/api/targets/${encodeURIComponent(id)}`, { completed }),
    onSuccess: async (_target, { completed }) => {
      toast(
        completed
          ? { title: 'Target Eliminated', description: 'Objective successfully completed' }
          : { title: 'Target Reactivated', description: 'Target marked as active again' },
      );
      await queryClient.invalidateQueries({ queryKey: TARGETS_KEY });
    },
    onError: (error) => showError(error, 'Failed to update target'),
  });

  if (targetsQuery.isPending) {
    return <ScreenLoading title="LOADING TARGET SYSTEM..." detail="Scanning target database..." />;
  }

  const targets = targetsQuery.data ?? [];
  const stats = targetStats(targets);
  const active = targets.filter((t) => !t.completed);
  const eliminated = targets.filter((t) => t.completed);
  const updatingId = updateTarget.isPending ? updateTarget.variables?.id : undefined;
  const toggle = (target: Target) => updateTarget.mutate({ id: target.id, completed: !target.completed });

  return (
    <ScreenFrame
      title="Target Elimination System"
      subtitle="Identify objectives. Execute. Eliminate."
      icon={<TargetIcon />}
    >
      {targetsQuery.isError ? (
        <p role="alert" className="mb-6 rounded-lg border-2 border-hero-red bg-hero-red-deep/20 p-4 text-sm text-ink">
          {targetsQuery.error.message}
        </p>
      ) : null}

      <dl className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard label="Active Targets" value={String(stats.active)} icon={<TargetIcon />} tone="red" />
        <StatCard label="Eliminated" value={String(stats.eliminated)} icon={<SkullIcon />} tone="green" />
        <StatCard label="Success Rate" value={`${stats.successRate}%`} icon={<ActivityIcon />} tone="cyan" />
      </dl>

      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <NewTargetForm
          pending={createTarget.isPending}
          onCreate={(input, reset) => createTarget.mutate(input, { onSuccess: reset })}
        />

        <div className="space-y-6 lg:col-span-2">
          <Panel title="Active Targets" icon={<TargetIcon />} accent="red">
            {active.length === 0 ? (
              <p className="rounded-lg border-2 border-dashed border-edge p-6 text-center text-muted">No active targets</p>
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

function StatCard({
  label,
  value,
  icon,
  tone,
}: {
  label: string;
  value: string;
  icon: ReactNode;
  tone: 'red' | 'green' | 'cyan';
}) {
  const toneClass = {
    red: 'bg-hero-red-deep text-white',
    green: 'bg-hero-green text-black',
    cyan: 'bg-hero-cyan text-black',
  }[tone];
  return (
    <div className="panel flex items-center gap-4 p-5">
      <span
        className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-lg border-2 border-black text-2xl shadow-[3px_3px_0_0_#000] ${toneClass}`}
      >
        {icon}
      </span>
      <div className="flex flex-col-reverse">
        <dt className="text-sm font-semibold tracking-wide text-muted">{label}</dt>
        <dd className="comic-heading text-3xl leading-none text-ink">{value}</dd>
      </div>
    </div>
  );
}

function NewTargetForm({
  pending,
  onCreate,
}: {
  pending: boolean;
  onCreate: (input: CreateTargetInput, reset: () => void) => void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const titleId = useId();
  const notesId = useId();
  const trimmedTitle = title.trim();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!trimmedTitle || pending) return;
    const notes = description.trim();
    onCreate(notes ? { title: trimmedTitle, description: notes } : { title: trimmedTitle }, () => {
      setTitle('');
      setDescription('');
    });
  }

  return (
    <Panel title="Mark New Target" icon={<TargetIcon />} accent="yellow">
      <form className="space-y-4" onSubmit={onSubmit}>
        <div>
          <label className="label" htmlFor={titleId}>
            Target Objective
          </label>
          <input
            id={titleId}
            className="field"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder="What must be eliminated?"
            autoComplete="off"
            required
          />
        </div>
        <div>
          <label className="label" htmlFor={notesId}>
            Strategic Notes
          </label>
          <textarea
            id={notesId}
            className="field min-h-28 resize-y"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            placeholder="Tactics, intel, deadlines (optional)"
          />
        </div>
        <button type="submit" className="btn btn-red w-full" disabled={!trimmedTitle || pending}>
          <TargetIcon />
          {pending ? 'Marking...' : 'Mark Target'}
        </button>
      </form>
    </Panel>
  );
}

function TargetRow({
  target,
  busy,
  onToggle,
}: {
  target: Target;
  busy: boolean;
  onToggle: (target: Target) => void;
}) {
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
          className={[
            'block cursor-pointer break-words font-semibold',
            done ? 'text-muted line-through decoration-hero-red decoration-2' : 'text-ink',
          ].join(' ')}
        >
          {target.title}
        </label>
        {target.description ? (
          <p className={['mt-1 whitespace-pre-wrap break-words text-sm text-muted', done ? 'line-through' : ''].join(' ')}>
            {target.description}
          </p>
        ) : null}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <span>Marked: {formatDate(target.createdAt)}</span>
          {done && target.completedAt ? <span>Eliminated: {formatDate(target.completedAt)}</span> : null}
        </p>
      </div>
      {done ? (
        <span className="badge shrink-0 bg-hero-green text-black">
          <CheckIcon className="mr-1" />
          ELIMINATED
        </span>
      ) : (
        <span className="badge shrink-0 bg-hero-yellow text-black">ACTIVE</span>
      )}
    </li>
  );
}
