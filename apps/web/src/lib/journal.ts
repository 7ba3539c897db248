import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from './api';
import { toast } from './toast';
import { toastFailure } from './unauthorized';

/** A journal entry as GET /api/journal lists it (spec section 3). */
export interface JournalEntry {
  id: string;
  title?: string | null;
  content: string;
  createdAt: string;
  updatedAt?: string | null;
}

export interface JournalEntryBody {
  title?: string;
  content: string;
}

export const JOURNAL_KEY = ['/api/journal'] as const;

/** Every entry; the dashboard shows their count, the journal screen the entries. */
export function useJournalEntries() {
  return useQuery<JournalEntry[]>({ queryKey: JOURNAL_KEY });
}

/**
 * The body of a new or edited entry (spec section 5): null when the content is
 * blank; the content is sent as typed; the title is trimmed and left out when empty.
 */
export function journalEntryBody(content: string, title = ''): JournalEntryBody | null {
  if (!content.trim()) return null;
  const trimmedTitle = title.trim();
  return trimmedTitle ? { title: trimmedTitle, content } : { content };
}

/** Stores a new entry ("Encrypt & Store" on the dashboard and the journal screen). */
export function useCreateJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: JournalEntryBody) => apiJson<JournalEntry>('POST', '/api/journal', body),
    onSuccess: async () => {
      toast({ title: 'Intelligence Logged', description: 'Entry encrypted and stored securely' });
      await queryClient.invalidateQueries({ queryKey: JOURNAL_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to save journal entry'),
  });
}

/** Created and updated times as en-US date and time, e.g. "Mar 1, 2025, 2:05 PM"; empty when invalid. */
export function formatEntryTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** An entry shows "(Updated: ...)" only when it was changed after it was created. */
export function wasUpdated(entry: Pick<JournalEntry, 'createdAt' | 'updatedAt'>): boolean {
  if (!entry.updatedAt) return false;
  const updated = Date.parse(entry.updatedAt);
  const created = Date.parse(entry.createdAt);
  return !Number.isNaN(updated) && !Number.isNaN(created) && updated > created;
}
