import { useId, useState, type FormEvent } from 'react';
import type { Activity } from '@vault/contracts';
import { usePendingDeletes, withoutPending } from '../../lib/deferred-delete';
import { useDraft } from '../../lib/drafts';
import { ALREADY_EXISTS_TOAST, isInCustomPool, missionBody, useCreateMission, useCustomMissions, useDeleteMission } from '../../lib/activities';
import { BUILT_IN_MISSIONS, missionPool, pickNextMission, type Mission } from '../../lib/missions';
import { toast } from '../../lib/toast';
import { TextAreaField, TextField } from '../form-fields';
import { ChevronDownIcon, PlusIcon, ShuffleIcon, TrashIcon, ZapIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/**
 * MISSION GENERATOR (spec section 2.7): a random mission from the built-in pool
 * and the owner's custom missions, GENERATE for another one, the plus button to
 * keep the current one, a form for a new one, and the custom missions list.
 */
export function MissionGeneratorCard() {
  const missions = useCustomMissions();
  const create = useCreateMission();
  const custom = missions.data;
  // The first mission comes from the built-in pool, so it shows before the custom ones load.
  const [current, setCurrent] = useState<Mission>(() => pickNextMission(BUILT_IN_MISSIONS, null)!);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const detailsId = useId();

  function generate() {
    const next = pickNextMission(missionPool(custom), current);
    if (next) setCurrent(next);
  }

  function saveCurrent() {
    if (create.isPending) return;
    if (isInCustomPool(custom, current.title)) {
      toast({ ...ALREADY_EXISTS_TOAST, variant: 'destructive' });
      return;
    }
    const body = missionBody(current.title, current.description);
    if (body) create.mutate(body);
  }

  return (
    <Panel title="MISSION GENERATOR" icon={<ShuffleIcon />} accent="yellow">
      <div className="rounded-lg border-2 border-hero-yellow/60 bg-vault-deep p-4">
        <p className="comic-heading text-xs tracking-widest text-hero-cyan">CURRENT MISSION</p>
        <p className="comic-heading mt-1 break-words text-2xl leading-tight text-hero-yellow" aria-live="polite" data-testid="current-mission">
          {current.title}
        </p>
        {current.description ? (
          <>
            <button
              type="button"
              className="mt-2 inline-flex min-h-9 items-center gap-1 rounded text-sm font-semibold text-muted hover:text-hero-cyan"
              aria-expanded={detailsOpen}
              aria-controls={detailsId}
              onClick={() => setDetailsOpen((open) => !open)}
            >
              <ChevronDownIcon className={`transition-transform ${detailsOpen ? 'rotate-180' : ''}`} />
              {detailsOpen ? 'Hide Details' : 'Show Details'}
            </button>
            {detailsOpen ? (
              <p id={detailsId} className="mt-1 break-words text-sm leading-relaxed text-ink">
                {current.description}
              </p>
            ) : null}
          </>
        ) : null}
        <div className="mt-4 flex gap-2">
          <button type="button" className="btn btn-yellow flex-1" onClick={generate}>
            <ZapIcon />
            GENERATE
          </button>
          <button
            type="button"
            className="btn btn-red shrink-0 px-3 text-lg"
            aria-label="Save mission to custom pool"
            title="Save this mission to your custom pool"
            disabled={create.isPending}
            onClick={saveCurrent}
          >
            <PlusIcon />
          </button>
        </div>
      </div>

      <NewMissionForm custom={custom} />

      <h3 className="comic-heading mb-3 mt-5 text-sm text-hero-cyan">YOUR CUSTOM MISSIONS</h3>
      {missions.isPending ? (
        <CardLoading />
      ) : missions.isError ? (
        <LoadError error={missions.error} onRetry={() => void missions.refetch()} retrying={missions.isFetching} />
      ) : (
        <CustomMissionList missions={missions.data} />
      )}
    </Panel>
  );
}

function CustomMissionList({ missions }: { missions: Activity[] }) {
  const remove = useDeleteMission();
  // Missions removed a moment ago, while UNDO is offered, are out of the list.
  const shown = withoutPending(missions, usePendingDeletes('mission'));
  if (shown.length === 0) return <EmptyState>No custom missions yet</EmptyState>;
  return (
    <ul className="max-h-48 space-y-2 overflow-y-auto pr-1" aria-label="Your custom missions">
      {shown.map((mission) => (
        <li key={mission.id} className="flex items-start gap-2 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
          <div className="min-w-0 flex-1">
            <p className="break-words font-semibold text-ink">{mission.title}</p>
            {mission.description ? <p className="mt-0.5 break-words text-sm text-muted">{mission.description}</p> : null}
          </div>
          <button
            type="button"
            className="-my-1 flex h-10 w-10 shrink-0 items-center justify-center rounded-md text-lg text-muted hover:bg-hero-red-deep/20 hover:text-hero-red disabled:cursor-wait disabled:opacity-50"
            aria-label={`Delete ${mission.title}`}
            title="Delete mission"
            onClick={() => remove(mission.id)}
          >
            <TrashIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}

const EMPTY_MISSION = { title: '', description: '' };

function NewMissionForm({ custom }: { custom: Activity[] | undefined }) {
  const [draft, setDraft, discard] = useDraft('dashboard.mission', EMPTY_MISSION);
  const { title, description } = draft;
  const setTitle = (value: string) => setDraft((current) => ({ ...current, title: value }));
  const setDescription = (value: string) => setDraft((current) => ({ ...current, description: value }));
  // A kept draft opens the form, so the owner sees it again.
  const [open, setOpen] = useState(() => Boolean(title || description));
  const formId = useId();
  const create = useCreateMission();
  const body = missionBody(title, description);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    if (isInCustomPool(custom, body.title)) {
      toast({ ...ALREADY_EXISTS_TOAST, variant: 'destructive' });
      return;
    }
    create.mutate(body, { onSuccess: discard });
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-ghost mt-4 w-full text-sm"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((value) => !value)}
      >
        <PlusIcon />
        Add New Mission
      </button>
      {open ? (
        <form id={formId} className="mt-4 space-y-3" onSubmit={onSubmit} aria-label="Add New Mission">
          <TextField label="Mission Title" placeholder="e.g. Learn three knots" value={title} onChange={setTitle} required />
          <TextAreaField
            label="Description (optional)"
            className="min-h-20"
            placeholder="e.g. Bowline, clove hitch and reef knot, tied with eyes closed"
            value={description}
            onChange={setDescription}
          />
          <button type="submit" className="btn btn-red w-full" disabled={!body || create.isPending}>
            {create.isPending ? 'Adding...' : 'Add Mission'}
          </button>
        </form>
      ) : null}
    </>
  );
}
