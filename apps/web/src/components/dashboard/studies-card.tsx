import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Study } from '@vault/contracts';
import { usePendingDeletes, withoutPending } from '../../lib/deferred-delete';
import { useDraft } from '../../lib/drafts';
import { studyBody, useCompleteStudy, useCreateStudy, useDeleteStudy, useStudies } from '../../lib/studies';
import { TextField } from '../form-fields';
import { ArchiveIcon, CapIcon, PlusIcon, TrashIcon } from '../icons';
import { Panel } from '../screen-frame';
import { CardLoading, EmptyState, LoadError } from '../states';

/** TODAY'S STUDIES (spec section 2.6). */
export function StudiesCard() {
  const studies = useStudies();
  const complete = useCompleteStudy();
  const remove = useDeleteStudy();
  const completingId = complete.isPending ? complete.variables : undefined;
  // Studies deleted a moment ago, while UNDO is offered, are out of the list.
  const deleting = usePendingDeletes('study');
  const [draft, setDraft, discardDraft] = useDraft('dashboard.study', EMPTY_STUDY);
  // A kept draft opens the form, so the owner sees it again.
  const [formOpen, setFormOpen] = useState(() => Boolean(draft.subject || draft.endGoal));
  const formId = useId();
  const active = withoutPending(studies.data?.filter((s) => !s.completed) ?? [], deleting);

  return (
    <Panel
      title="TODAY'S STUDIES"
      icon={<CapIcon />}
      accent="cyan"
      actions={
        <Link to="/studies-archive" className="btn btn-ghost min-h-9 px-3 py-1 text-xs">
          <ArchiveIcon />
          Archive
        </Link>
      }
    >
      {studies.isPending ? (
        <CardLoading />
      ) : studies.isError ? (
        <LoadError error={studies.error} onRetry={() => void studies.refetch()} retrying={studies.isFetching} />
      ) : active.length === 0 ? (
        <EmptyState icon={<CapIcon />}>No studies added for today. Add your first study below!</EmptyState>
      ) : (
        <ul className="space-y-2">
          {active.map((study) => (
            <StudyItem
              key={study.id}
              study={study}
              completing={completingId === study.id}
              onComplete={() => complete.mutate(study.id)}
              onDelete={() => remove(study.id)}
            />
          ))}
        </ul>
      )}
      <button
        type="button"
        className="btn btn-ghost mt-4 w-full text-sm"
        aria-expanded={formOpen}
        aria-controls={formId}
        onClick={() => setFormOpen((open) => !open)}
      >
        <PlusIcon />
        Add New Study
      </button>
      {formOpen ? <NewStudyForm id={formId} draft={draft} setDraft={setDraft} discard={discardDraft} /> : null}
    </Panel>
  );
}

function StudyItem({ study, completing, onComplete, onDelete }: { study: Study; completing: boolean; onComplete: () => void; onDelete: () => void }) {
  return (
    <li className="flex items-start gap-3 rounded-lg border-2 border-edge bg-vault-deep px-3 py-2">
      <input
        type="checkbox"
        className="mt-1 h-5 w-5 shrink-0 cursor-pointer disabled:cursor-wait"
        checked={completing}
        disabled={completing}
        onChange={() => {
          if (!completing) onComplete();
        }}
        aria-label={`Complete ${study.subject}`}
        title="Complete: move to the archive"
      />
      <div className="min-w-0 flex-1">
        <p className="break-words font-semibold text-ink">{study.subject}</p>
        <p className="mt-0.5 break-words text-sm text-muted">End Goal: {study.endGoal}</p>
      </div>
      <button
        type="button"
        className="-my-1 flex h-10 w-10 shrink-0 items-center justify-center rounded-md text-lg text-muted hover:bg-hero-red-deep/20 hover:text-hero-red disabled:cursor-wait disabled:opacity-50"
        aria-label={`Delete ${study.subject}`}
        title="Delete study"
        disabled={completing}
        onClick={onDelete}
      >
        <TrashIcon />
      </button>
    </li>
  );
}

const EMPTY_STUDY = { subject: '', endGoal: '' };
type StudyDraft = typeof EMPTY_STUDY;

/** The new study's fields; their draft is held by the card, so closing the form keeps it. */
function NewStudyForm({
  id,
  draft,
  setDraft,
  discard,
}: {
  id: string;
  draft: StudyDraft;
  setDraft: (next: (current: StudyDraft) => StudyDraft) => void;
  discard: () => void;
}) {
  const { subject, endGoal } = draft;
  const setSubject = (value: string) => setDraft((current) => ({ ...current, subject: value }));
  const setEndGoal = (value: string) => setDraft((current) => ({ ...current, endGoal: value }));
  const create = useCreateStudy();
  const body = studyBody(subject, endGoal);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate(body, { onSuccess: discard });
  }

  return (
    <form id={id} className="mt-4 space-y-3" onSubmit={onSubmit}>
      <TextField label="Subject" placeholder="e.g. Spanish verbs" value={subject} onChange={setSubject} />
      <TextField label="End Goal" placeholder="e.g. Hold a five-minute conversation" value={endGoal} onChange={setEndGoal} />
      <button type="submit" className="btn btn-red w-full" disabled={!body || create.isPending}>
        {create.isPending ? 'Adding...' : 'Add Study'}
      </button>
    </form>
  );
}
