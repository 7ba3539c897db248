import { z } from 'zod';
import { Empty, EntityId, IsoTimestamp, TITLE_MAX, optionalText } from './fields.js';
import { SEARCH_QUERY_MAX, SEARCH_TERMS_MAX, searchTerms } from './journal-search.js';
import { IsoDate } from './planner-fields.js';
import { defineRpc } from './rpc.js';
import { isKnownTimeZone } from './time-zones.js';

/** Long enough for any diary entry; a larger body is refused with a clear 400. */
export const JOURNAL_CONTENT_MAX = 100_000;
export const JOURNAL_PAGE_MAX = 500;

export const JournalEntry = z.object({
  id: z.string(),
  title: z.string().optional(),
  content: z.string(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** Content is kept exactly as typed, but must have something besides whitespace (spec 5). */
const Content = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(JOURNAL_CONTENT_MAX, `must be at most ${JOURNAL_CONTENT_MAX} characters`)
  .refine((value) => value.trim().length > 0, 'must not be empty');

export const JournalEntryBody = z.object({
  title: optionalText(TITLE_MAX),
  content: Content,
});
export type JournalEntryBody = z.input<typeof JournalEntryBody>;

const PageNumber = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((value) => value <= max, `${name} must be at most ${max}`)
    .optional();

/**
 * The spec's answer is the whole array, newest first. `limit` and `offset`
 * (query string) are optional, so a long journal can be read a page at a time.
 */
export const ListJournal = defineRpc({
  pattern: 'journal.entries.list',
  request: z.object({ limit: PageNumber('limit', JOURNAL_PAGE_MAX), offset: PageNumber('offset', 1_000_000) }),
  response: z.array(JournalEntry),
});

/** How many entries exist, without reading (or decrypting) any of them. */
export const CountJournal = defineRpc({
  pattern: 'journal.entries.count',
  request: Empty,
  response: z.object({ count: z.number() }),
});
export type JournalCount = z.infer<typeof CountJournal.response>;

/** What search is asked for: words and "phrases" (journal-search.ts), in the body, never in a URL. */
const SearchQuery = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`)
  .refine((query) => searchTerms(query).length > 0, 'must contain a word to look for')
  .refine((query) => searchTerms(query).length <= SEARCH_TERMS_MAX, `must contain at most ${SEARCH_TERMS_MAX} words and phrases`);

/** A page of a JSON body's list: a whole number, bounded like the list's query string. */
const BodyPageNumber = (min: number, max: number) =>
  z.number({ error: 'must be a number' }).int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).optional();

/**
 * The entries holding every word and phrase of the query, in their title or
 * content, newest first, as the list answers them; `limit` and `offset` read
 * one page. The text never leaves journal-svc's memory for it (search/).
 */
export const SearchJournal = defineRpc({
  pattern: 'journal.entries.search',
  request: z.object({ query: SearchQuery, limit: BodyPageNumber(1, JOURNAL_PAGE_MAX), offset: BodyPageNumber(0, 1_000_000) }),
  response: z.array(JournalEntry),
  // The first search after a start waits for the index, built from every entry (`npm run bench`:
  // 10,000 entries); every later one answers in milliseconds.
  timeoutMs: 10_000,
});

/** An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`): the owner's, for "on this day". */
const TimeZoneName = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(64, 'must be at most 64 characters')
  .refine((zone) => /^[A-Za-z0-9_+\-/]+$/.test(zone) && isKnownTimeZone(zone), 'must be a time zone name such as Europe/Paris');

/** One entry written on this day in an earlier year: what the look back shows of it. */
export const OnThisDayEntry = z.object({
  id: z.string(),
  title: z.string().optional(),
  /** The first line of its content with text on it, at most ON_THIS_DAY_LINE_MAX characters. */
  firstLine: z.string(),
  /** The year it was written, in the owner's time zone. */
  year: z.number(),
  createdAt: IsoTimestamp,
});
export type OnThisDayEntry = z.infer<typeof OnThisDayEntry>;
export const ON_THIS_DAY_LINE_MAX = 160;
export const ON_THIS_DAY_MAX = 20;

/**
 * "On this day": the entries written on `date`'s month and day in earlier
 * years, in the owner's time zone (on 28 February of a year without a 29th,
 * the 29th's too), newest first.
 */
export const OnThisDay = defineRpc({
  pattern: 'journal.entries.on-this-day',
  request: z.object({ date: IsoDate, timeZone: TimeZoneName }),
  response: z.array(OnThisDayEntry),
});

export const CreateJournalEntry = defineRpc({
  pattern: 'journal.entries.create',
  request: JournalEntryBody,
  response: JournalEntry,
});

export const UpdateJournalEntry = defineRpc({
  pattern: 'journal.entries.update',
  request: JournalEntryBody.extend({ id: EntityId }),
  response: JournalEntry,
});

export const DeleteJournalEntry = defineRpc({
  pattern: 'journal.entries.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
});
