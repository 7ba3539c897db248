import { useId, type FormEvent } from 'react';
import type { Target } from '@vault/contracts';
import { useDraft } from '../../lib/drafts';
import { newTargetBody, useCreateTarget, useTargets, useToggleTarget } from '../../lib/targets';
import { PlusIcon, TargetIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/** TARGETS on the dashboard (spec section 2.5): tick to eliminate, type and Enter to add. */
export function TargetsCard() {
  const targets = useTargets();
  const toggle = useToggleTarget();
  const busyId = toggle.isPending ? toggle.variables?.id : undefined;

  return (
    <Panel title="TARGETS" icon={<TargetIcon />} accent="red">
      {targets.isPending ? (
        <CardLoading />
      ) : targets.isError ? (
        <LoadError error={targets.error} onRetry={() => void targets.refetch()} retrying={targets.isFetching} />
      ) : targets.data.length === 0 ? (
        <EmptyState icon={<TargetIcon />}>No targets identified</EmptyState>
      ) : (
        <ul className="max-h-64 space-y-2 overflow-y-auto pr-1">
          {targets.data.map((target) => (
            <TargetItem
              key={target.id}
              target={target}
              busy={busyId === target.id}
              onToggle={() => toggle.mutate({ id: target.id, completed: !target.completed })}
            />
          ))}
        </ul>
      )}
      <NewTargetInput />
    </Panel>
  );
}

function TargetItem({ target, busy, onToggle }: { target: Target; busy: boolean; onToggle: () => void }) {
  const id = useId();
  return (
    <li className="flex items-center gap-3 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
      <input id={id} type="checkbox" className="h-5 w-5 shrink-0 cursor-pointer" checked={target.completed} disabled={busy} onChange={onToggle} />
      <label
        htmlFor={id}
        className={`min-w-0 flex-1 cursor-pointer break-words ${target.completed ? 'text-muted line-through decoration-hero-red decoration-2' : 'text-ink'}`}
      >
        {target.title}
      </label>
    </li>
  );
}

function NewTargetInput() {
  // Kept on the device as it is typed, until it is added (see drafts).
  const [title, setTitle, discard] = useDraft('dashboard.target', '');
  const inputId = useId();
  const create = useCreateTarget('dashboard');
  const body = newTargetBody(title);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate(body, { onSuccess: discard });
  }

  return (
    <form className="mt-4 flex gap-2" onSubmit={onSubmit}>
      <label htmlFor={inputId} className="sr-only">
        New target
      </label>
      <input id={inputId} className="field" placeholder="Identify new target..." value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" />
      <button type="submit" className="btn btn-red shrink-0 px-3 text-lg" disabled={!body || create.isPending} aria-label="Add target">
        <PlusIcon />
      </button>
    </form>
  );
}
