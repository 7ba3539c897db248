import { useState, type FormEvent } from 'react';
import { searchTerms, type JournalEntry } from '@vault/contracts';
import { useDraft, useHasDraft } from '../lib/drafts';
import { usePendingDeletes, withoutPending } from '../lib/deferred-delete';
import { BookIcon, ChevronDownIcon, CloseIcon, LockIcon, PencilIcon, SaveIcon, SearchIcon, TrashIcon } from '../components/icons';
import { EntryMarkdown } from '../components/entry-markdown';
import { Highlighted } from '../components/highlighted';
import { OnThisDay } from '../components/on-this-day';
import { TextAreaField, TextField } from '../components/form-fields';
import { ImportJournalSection } from '../components/import-journal';
import { PhotoVault } from '../components/photo-vault';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { EmptyState, LoadError } from '../components/states';
import { ScreenLoading } from '../components/status-screens';
import {
  formatEntryTime,
  journalEntryBody,
  useCreateJournalEntry,
  useDeleteJournalEntry,
  useJournalEntries,
  useJournalSearch,
  useUpdateJournalEntry,
  changesEntry,
  editDraftKey,
  wasUpdated,
} from '../lib/journal';

/** The intelligence vault (spec section 2.9): photo vault, new entry, entries, and a search over them. */
export default function JournalScreen() {
  const entries = useJournalEntries();
  // The search shown: what was submitted in the search field; empty for every entry.
  const [query, setQuery] = useState('');
  const search = useJournalSearch(query);
  const searching = searchTerms(query).length > 0;
  const [editingId, setEditingId] = useState<string | null>(null);
  // Entries deleted a moment ago, while UNDO is offered, are out of the list.
  const deleting = usePendingDeletes('journal');

  if (entries.isPending) {
    return <ScreenLoading title="ACCESSING INTELLIGENCE VAULT..." detail="Decrypting intelligence files..." />;
  }

  const listed = searching ? search : entries;
  const shown = listed.data ? withoutPending(listed.data.pages.flat(), deleting) : [];
  const terms = searching ? searchTerms(query) : [];

  return (
    <ScreenFrame title="Intelligence Vault" subtitle="Encrypted field notes and a secure photo vault" icon={<BookIcon />}>
      <div className="space-y-6">
        <PhotoVault />
        <OnThisDay />

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 lg:items-start">
          <div className="min-w-0 space-y-6">
            <NewEntryForm />
            {/* Here too, not only in the settings panel: a phone has no settings panel. */}
            <ImportJournalSection />
          </div>
          <Panel title="INTELLIGENCE LOGS" icon={<BookIcon />} accent="yellow" className="lg:col-span-2">
            <SearchForm onSearch={setQuery} />
            {listed.isError ? (
              <LoadError error={listed.error} onRetry={() => void listed.refetch()} retrying={listed.isFetching} />
            ) : searching && search.isPending ? (
              <p className="text-sm text-muted" role="status">
                Searching the vault...
              </p>
            ) : shown.length > 0 || listed.hasNextPage ? (
              <>
                {searching ? (
                  <p className="mb-3 text-sm text-muted" role="status">
                    {listed.hasNextPage ? `${shown.length}+` : shown.length} {shown.length === 1 ? 'entry matches' : 'entries match'}
                  </p>
                ) : null}
                <ul className="space-y-4">
                  {shown.map((entry) =>
                    entry.id === editingId ? (
                      <EntryEditor key={entry.id} entry={entry} onDone={() => setEditingId(null)} />
                    ) : (
                      <EntryItem key={entry.id} entry={entry} terms={terms} onEdit={() => setEditingId(entry.id)} />
                    ),
                  )}
                </ul>
                {listed.hasNextPage ? (
                  <div className="mt-4 flex justify-center">
                    <button type="button" className="btn btn-ghost" onClick={() => void listed.fetchNextPage()} disabled={listed.isFetchingNextPage}>
                      <ChevronDownIcon />
                      {listed.isFetchingNextPage ? 'Loading...' : searching ? 'Load more results' : 'Load older entries'}
                    </button>
                  </div>
                ) : null}
              </>
            ) : searching ? (
              <EmptyState icon={<SearchIcon />}>No intelligence logs match your search</EmptyState>
            ) : (
              <EmptyState icon={<BookIcon />}>No intelligence logs found</EmptyState>
            )}
          </Panel>
        </div>
      </div>
    </ScreenFrame>
  );
}

/** The search field: words and "phrases", searched on Enter or SEARCH; the cross shows every entry again. */
function SearchForm({ onSearch }: { onSearch: (query: string) => void }) {
  const [typed, setTyped] = useState('');
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(typed.trim());
  }
  function clear() {
    setTyped('');
    onSearch('');
  }
  return (
    <search className="mb-4 block">
      <form className="flex gap-2" onSubmit={onSubmit} aria-label="Search intelligence logs">
        <input
          type="search"
          className="field min-w-0 flex-1"
          placeholder='Search words or "a phrase"...'
          aria-label="Search intelligence logs"
          value={typed}
          maxLength={200}
          onChange={(event) => {
            setTyped(event.target.value);
            if (!event.target.value) onSearch('');
          }}
          autoComplete="off"
        />
        {typed ? (
          <button type="button" className="btn btn-ghost px-3" onClick={clear} aria-label="Clear search" title="Clear search">
            <CloseIcon />
          </button>
        ) : null}
        <button type="submit" className="btn btn-yellow px-3" aria-label="Search" title="Search" disabled={searchTerms(typed).length === 0}>
          <SearchIcon />
        </button>
      </form>
    </search>
  );
}

function EntryItem({ entry, terms, onEdit }: { entry: JournalEntry; terms: readonly string[]; onEdit: () => void }) {
  const remove = useDeleteJournalEntry();
  // Edits left when another entry's editor was opened (or the session ended) wait here.
  const unsaved = useHasDraft(editDraftKey(entry.id));
  const name = entry.title || formatEntryTime(entry.createdAt) || 'entry';
  return (
    <li className="rounded-lg border-2 border-edge bg-vault-deep p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {entry.title ? (
            <h3 className="comic-heading break-words text-lg text-ink">
              <Highlighted text={entry.title} terms={terms} />
            </h3>
          ) : null}
          <p className="mt-1 text-xs text-muted">
            {formatEntryTime(entry.createdAt)}
            {wasUpdated(entry) ? ` (Updated: ${formatEntryTime(entry.updatedAt)})` : ''}
          </p>
          {unsaved ? (
            <p className="mt-2">
              <button type="button" className="badge bg-hero-yellow text-black hover:bg-hero-cyan" onClick={onEdit}>
                UNSAVED EDITS: open to finish
              </button>
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 gap-1">
          <button type="button" className="rounded p-2 text-hero-cyan hover:bg-panel-2" onClick={onEdit} aria-label={`Edit ${name}`} title="Edit">
            <PencilIcon />
          </button>
          <button
            type="button"
            className="rounded p-2 text-hero-red hover:bg-panel-2 disabled:opacity-50"
            onClick={() => remove(entry.id)}
            aria-label={`Delete ${name}`}
            title="Delete"
          >
            <TrashIcon />
          </button>
        </div>
      </div>
      <div className="mt-3">
        <EntryMarkdown text={entry.content} terms={terms} />
      </div>
    </li>
  );
}

/**
 * Inline edit of one entry: the same rules as a new entry. One editor is open
 * at a time (spec section 2.9); what is typed is kept on the device as it is
 * typed, so opening another entry's editor (or an expired session) loses
 * nothing: the entry says it has unsaved edits, and its editor reopens with
 * them. Save Changes and Cancel forget them.
 */
function EntryEditor({ entry, onDone }: { entry: JournalEntry; onDone: () => void }) {
  const [draft, setDraft, discard] = useDraft(editDraftKey(entry.id), { title: entry.title ?? '', content: entry.content });
  const { title, content } = draft;
  const setTitle = (value: string) => setDraft((current) => ({ ...current, title: value }));
  const setContent = (value: string) => setDraft((current) => ({ ...current, content: value }));
  const update = useUpdateJournalEntry();
  const body = journalEntryBody(content, title);

  function close() {
    discard();
    onDone();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || update.isPending) return;
    // Nothing to save when the entry is as shown: a save would only date it
    // "(Updated: ...)" (the server dates every change it is sent).
    if (!changesEntry(entry, body)) {
      close();
      return;
    }
    update.mutate({ id: entry.id, body }, { onSuccess: close });
  }

  return (
    <li className="rounded-lg border-2 border-hero-cyan bg-vault-deep p-4">
      <form className="space-y-3" onSubmit={onSubmit} aria-label="Edit entry">
        <TextField label="Edit title (optional)" value={title} onChange={setTitle} />
        <TextAreaField label="Edit intelligence" className="min-h-32" value={content} onChange={setContent} required />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-ghost" onClick={close} disabled={update.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn-red" disabled={!body || update.isPending}>
            <SaveIcon />
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </li>
  );
}

const EMPTY_ENTRY = { title: '', content: '' };

/** A new entry; what is typed is kept on the device until it is stored or erased by hand. */
function NewEntryForm() {
  const [draft, setDraft, discard] = useDraft('journal.new', EMPTY_ENTRY);
  const { title, content } = draft;
  const setTitle = (value: string) => setDraft((current) => ({ ...current, title: value }));
  const setContent = (value: string) => setDraft((current) => ({ ...current, content: value }));
  const create = useCreateJournalEntry();
  const body = journalEntryBody(content, title);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate(body, { onSuccess: discard });
  }

  return (
    <Panel title="NEW INTELLIGENCE" icon={<LockIcon />} accent="red">
      <form className="space-y-4" onSubmit={onSubmit}>
        <TextField label="Title (optional)" placeholder="Operation codename..." value={title} onChange={setTitle} />
        <TextAreaField label="Intelligence" className="min-h-40" placeholder="Record your intelligence..." value={content} onChange={setContent} required />
        <button type="submit" className="btn btn-red w-full" disabled={!body || create.isPending}>
          <LockIcon />
          {create.isPending ? 'Encrypting...' : 'Encrypt & Store'}
        </button>
      </form>
    </Panel>
  );
}
