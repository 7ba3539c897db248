import { useId, type FormEvent } from 'react';
import { useDraft } from '../../lib/drafts';
import { journalEntryBody, useCreateJournalEntry } from '../../lib/journal';
import { BookIcon, LockIcon } from '../icons';
import { Panel } from '../screen-frame';

/** INTELLIGENCE LOG (spec section 2.5): a quick journal entry, content only. */
export function IntelligenceLogCard() {
  // Kept on the device as it is typed, until it is stored (see drafts).
  const [content, setContent, discard] = useDraft('dashboard.intel', '');
  const fieldId = useId();
  const create = useCreateJournalEntry();
  const body = journalEntryBody(content);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!body || create.isPending) return;
    create.mutate({ content: body.content }, { onSuccess: discard });
  }

  return (
    <Panel title="INTELLIGENCE LOG" icon={<BookIcon />} accent="yellow">
      <form onSubmit={onSubmit}>
        <label htmlFor={fieldId} className="sr-only">
          Today's intelligence
        </label>
        <textarea
          id={fieldId}
          className="field min-h-32 resize-y"
          placeholder="Record today's strategic insights..."
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <span className="flex items-center gap-1.5 text-xs font-semibold tracking-wider text-hero-green">
            <LockIcon />
            Auto-encrypted
          </span>
          <button type="submit" className="btn btn-red" disabled={!body || create.isPending}>
            <LockIcon />
            {create.isPending ? 'Encrypting...' : 'Encrypt & Store'}
          </button>
        </div>
      </form>
    </Panel>
  );
}
