import { z } from 'zod';

/** Shared field shapes, so every contract words its refusals the same way. */

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;

/** A required line of text: trimmed, then non-empty and bounded. */
export function requiredText(max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
}

/** An optional text: trimmed, and omitted when blank. */
export function optionalText(max: number) {
  return z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .optional()
    .nullable()
    .transform((value) => (value ? value : undefined));
}

export const EntityId = z.uuid({ error: 'must be a valid id' });

export const IsoTimestamp = z.string();

export const Empty = z.object({}).strip();

/**
 * The fields of the archive's records (libs/contracts/src/archive.contracts.ts):
 * checked as strictly as what a restore writes back.
 */
export const RecordId = z.uuid({ error: 'must be a valid id' });
export const RecordTime = z.iso.datetime({ error: 'must be an ISO 8601 time' });
export const recordText = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`);
export const recordNonEmpty = (max: number) => recordText(max).refine((value) => value.trim().length > 0, 'must not be empty');
