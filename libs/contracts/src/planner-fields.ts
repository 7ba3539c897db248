import { z } from 'zod';

/** A calendar date as the web sends it: `YYYY-MM-DD`, taken in UTC (spec section 7). */
export const IsoDate = z
  .string({ error: 'must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, 'must be a real calendar date');

/** The UTC weekday of an IsoDate: 0 is Sunday, as in the weekly templates. */
export function dayOfWeekOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** `HH:MM` on a 24-hour clock. */
export const ClockTime = z.string({ error: 'must be a time (HH:MM)' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time (HH:MM, 24-hour)');

/** 0 (Sunday) to 6 (Saturday), as a JSON number. */
export const DayOfWeek = z
  .number({ error: 'must be a day from 0 (Sunday) to 6 (Saturday)' })
  .int('must be a day from 0 (Sunday) to 6 (Saturday)')
  .min(0, 'must be a day from 0 (Sunday) to 6 (Saturday)')
  .max(6, 'must be a day from 0 (Sunday) to 6 (Saturday)');

/** The same day as a path segment (`/api/weekly-templates/3`). */
export const DayOfWeekParam = z
  .string()
  .regex(/^[0-6]$/, 'must be a day from 0 (Sunday) to 6 (Saturday)')
  .transform(Number);
