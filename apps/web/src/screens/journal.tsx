import { useId, useState, type FormEvent } from 'react';
import { BookIcon, ImageIcon, LockIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { EmptyState, LoadError } from '../components/states';
import { ScreenLoading } from '../components/status-screens';
import {
  formatEntryTime,
  journalEntryBody,
  useCreateJournalEntry,
  useJournalEntries,
  wasUpdated,
  type JournalEntry,
} from '../lib/journal';

/**
 * The intelligence vault (spec section 2.9): photo vault, new entry, entries.
 * Uploading photos and editing or deleting entries belong to the journal and media issues.
 */
export default function JournalScreen() {
  const entries = useJournalEntries();

  if (entries.isPending) {
    return <ScreenLoading title="ACCESSING INTELLIGENCE VAULT..." detail="Decrypting intelligence files..." />;
  }

  return (
    <ScreenFrame title="Intelligence Vault" subtitle="Encrypted field notes and a secure photo vault" icon={<BookIcon />}>
      <div className="space-y-6">
        <Panel title="SECURE PHOTO VAULT" icon={<ImageIcon />} accent="cyan">
          <EmptyState icon={<ImageIcon />} hint="Your secure photo vault is empty">
            No photos uploaded yet
          </EmptyState>
        </Panel>

        <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
          <NewEntryForm />
          <Panel title="INTELLIGENCE LOGS" icon={<BookIcon />} accent="yellow" className="lg:col-span-2">
            {entries.isError ? (
              <LoadError error={entries.error} />
            ) : entries.data.length === 0 ? (
              <EmptyState icon={<BookIcon />}>No intelligence logs found</EmptyState>
            ) : (
              <ul className="space-y-4">
                {entries.data.map((entry) => (
                  <EntryItem key={entry.id} entry={entry} />
                ))}
              </ul>
            )}
          </Panel>
        </div>
      </div>
    </ScreenFrame>
  );
}

function EntryItem({ entry }: { entry: JournalEntry }) {
  return (
    <li className="rounded-lg border-2 border-edge bg-vault-deep p-4">
      {entry.title ? <h3 className="comic-heading break-words text-lg text-ink">{entry.title}</h3> : null}
      <p className="mt-1 text-xs text-muted">
        {formatEntryTime(entry.createdAt)}
        {wasUpdated(entry) ? ` (Updated: ${formatEntryTime(entry.updatedAt)})` : ''}
      </p>
      <p className="mt-3 whitespace-pre-wrap break-words text-ink">{entry.content}</p>
    </li>
  );
}

function NewEntryForm() {
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const titleId = useId();
  const contentId = useId();
  const create = useCreateJournalEntry();
  const body = journalEntryBody(content, title);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate(body, {
      onSuccess: () => {
        setTitle('');
        setContent('');
      },
    });
  }

  return (
    <Panel title="NEW INTELLIGENCE" icon={<LockIcon />} accent="red">
      <form className="space-y-4" onSubmit={onSubmit}>
        <div>
          <label className="label" htmlFor={titleId}>
            Title (optional)
          </label>
          <input
            id={titleId}
            className="field"
            placeholder="Operation codename..."
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div>
          <label className="label" htmlFor={contentId}>
            Intelligence
          </label>
          <textarea
            id={contentId}
            className="field min-h-40 resize-y"
            placeholder="Record your intelligence..."
            value={content}
            onChange={(e) => setContent(e.target.value)}
            required
          />
        </div>
        <button type="submit" className="btn btn-red w-full" disabled={!body || create.isPending}>
          <LockIcon />
          {create.isPending ? 'Encrypting...' : 'Encrypt & Store'}
        </button>
      </form>
    </Panel>
  );
}
