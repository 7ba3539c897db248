import { z } from 'zod';
import { Empty, EntityId, IsoTimestamp, TITLE_MAX, optionalText } from './fields.js';
import { defineRpc } from './rpc.js';

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
