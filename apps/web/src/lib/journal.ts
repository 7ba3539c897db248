import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, SEARCH_PAGE_SIZE, searchTerms, type JournalEntry, type JournalEntryBody } from '@vault/contracts';
import { callApi, routeUrl } from './api';
import { useDeferredDelete, type DeferredDelete } from './deferred-delete';
import { toast } from './toast';
import { toastFailure } from './unauthorized';
import { enUsDateFormat } from './date-format';
import { routeQuery } from './route-query';

/** The prefix of every journal query (the pages and the count). */
export const JOURNAL_KEY = [HTTP_ROUTES.journal.path] as const;
export const JOURNAL_PAGES_KEY = [HTTP_ROUTES.journal.path, 'pages'] as const;
const journalCountQuery = routeQuery(HTTP_ROUTES.journalCount);
/** Under JOURNAL_KEY (routeKey): a change to the journal refreshes the count too. */
export const JOURNAL_COUNT_KEY = journalCountQuery.queryKey;

/** How many entries the journal screen fetches at a time. */
export const JOURNAL_PAGE_SIZE = 50;

/** The URL of one page of entries, newest first. */
export function journalPageUrl(offset: number, limit = JOURNAL_PAGE_SIZE): string {
  return `${HTTP_ROUTES.journal.path}?limit=${limit}&offset=${offset}`;
}

/** For pages of `pageSize` entries: the offset of the next page, or undefined when the last page was not full. */
function nextOffset(pageSize: number) {
  return (lastPage: JournalEntry[], allPages: JournalEntry[][]): number | undefined => {
    if (lastPage.length < pageSize) return undefined;
    return allPages.reduce((sum, page) => sum + page.length, 0);
  };
}

/** The offset of the journal list's next page, or undefined when the last page was not full. */
export const nextJournalOffset = nextOffset(JOURNAL_PAGE_SIZE);

/** The entries, newest first, a page at a time; shared by the screen and its preload. */
export const journalPagesQuery = infiniteQueryOptions({
  queryKey: JOURNAL_PAGES_KEY,
  initialPageParam: 0,
  queryFn: ({ pageParam, signal }) => callApi(HTTP_ROUTES.journal, { query: { limit: JOURNAL_PAGE_SIZE, offset: pageParam }, signal }),
  getNextPageParam: nextJournalOffset,
});

/** The entries, newest first, fetched a page at a time ("Load older entries"). */
export function useJournalEntries() {
  return useInfiniteQuery(journalPagesQuery);
}

/**
 * The entries holding every word and "phrase" of `query`, newest first, a
 * page at a time. The query goes in the body (POST), never in a URL; its
 * answers are kept only while the search is shown (gcTime 0), and under
 * JOURNAL_KEY, so a change to the journal searches again.
 */
export function journalSearchQuery(query: string) {
  return infiniteQueryOptions({
    queryKey: [...JOURNAL_KEY, 'search', query],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => callApi(HTTP_ROUTES.searchJournal, { body: { query, limit: SEARCH_PAGE_SIZE, offset: pageParam }, signal }),
    getNextPageParam: nextOffset(SEARCH_PAGE_SIZE),
    enabled: searchTerms(query).length > 0,
    gcTime: 0,
  });
}

export function useJournalSearch(query: string) {
  return useInfiniteQuery(journalSearchQuery(query));
}

/** Today's date in this browser's time zone (`YYYY-MM-DD`) and the zone's name: what "on this day" asks with. */
export function localToday(now: Date = new Date()): { date: string; timeZone: string } {
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** Entries written on today's month and day in earlier years (the journal's and the dashboard's look back). */
export function useOnThisDay(today = localToday()) {
  return useQuery({
    queryKey: [...JOURNAL_KEY, 'on-this-day', today.date, today.timeZone],
    queryFn: ({ signal }) => callApi(HTTP_ROUTES.journalOnThisDay, { query: today, signal }),
  });
}

/** The number of entries (the dashboard's "Journal Entries" stat). */
export function useJournalCount() {
  return useQuery(journalCountQuery);
}

/** Refetches the journal pages and the count after a change. */
export function refreshJournal(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: JOURNAL_KEY });
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

/**
 * Whether an edit changes what the entry shows: its title (trimmed, none when
 * blank, as journalEntryBody sends it) or its content (as typed).
 */
export function changesEntry(entry: Pick<JournalEntry, 'title' | 'content'>, body: JournalEntryBody): boolean {
  return (body.title ?? '') !== (entry.title?.trim() ?? '') || body.content !== entry.content;
}

/** Where an entry's unsaved edits are kept on this device (see drafts). */
export function editDraftKey(id: string): string {
  return `journal.edit.${id}`;
}

/** Stores a new entry ("Encrypt & Store" on the dashboard and the journal screen). */
export function useCreateJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: JournalEntryBody) => callApi(HTTP_ROUTES.createJournalEntry, { body }),
    onSuccess: async () => {
      toast({ title: 'Intelligence Logged', description: 'Entry encrypted and stored securely' });
      await refreshJournal(queryClient);
    },
    onError: (error) => toastFailure(error, 'Failed to save journal entry'),
  });
}

/** Saves an edited entry ("Save Changes"). */
export function useUpdateJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: JournalEntryBody }) => callApi(HTTP_ROUTES.updateJournalEntry, { params: { id }, body }),
    onSuccess: async () => {
      toast({ title: 'Entry Updated', description: 'Intelligence log updated successfully' });
      await refreshJournal(queryClient);
    },
    onError: (error) => toastFailure(error, 'Failed to update journal entry'),
  });
}

/** Erases an entry, with UNDO while its toast shows (see deferred-delete). */
export const JOURNAL_DELETE: DeferredDelete = {
  kind: 'journal',
  url: (id) => routeUrl(HTTP_ROUTES.deleteJournalEntry, { id }),
  refresh: JOURNAL_KEY,
  toast: { title: 'Entry Deleted', description: 'Intelligence log securely erased' },
  failure: 'Failed to delete journal entry',
};

export function useDeleteJournalEntry(): (id: string) => void {
  return useDeferredDelete(JOURNAL_DELETE);
}

/** Created and updated times as en-US date and time, e.g. "Mar 1, 2025, 2:05 PM"; empty when invalid. */
export function formatEntryTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return ENTRY_TIME.format(date);
}

const ENTRY_TIME = enUsDateFormat({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** An entry shows "(Updated: ...)" only when it was changed after it was created. */
export function wasUpdated(entry: Pick<JournalEntry, 'createdAt' | 'updatedAt'>): boolean {
  if (!entry.updatedAt) return false;
  const updated = Date.parse(entry.updatedAt);
  const created = Date.parse(entry.createdAt);
  return !Number.isNaN(updated) && !Number.isNaN(created) && updated > created;
}
