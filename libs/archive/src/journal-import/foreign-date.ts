/**
 * A date as exports write them: ISO 8601 (`2024-03-05T07:08:09Z`,
 * `2024-03-05T07:08:09.123+01:00`), with a space for the T as Joplin writes
 * it (`2024-03-05 07:08:09Z`), or a day alone (`2024-03-05`, midnight UTC).
 * A time without a zone is read as UTC. Undefined for anything else, and
 * for a date that does not exist (`2024-02-30`).
 */
export function parseForeignDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const text = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  // The calendar day must exist as written (Date rolls 2024-02-30 over to March).
  const local = new Date(date.getTime() + offsetMinutes(offset) * 60_000);
  if (local.getUTCFullYear() !== Number(year) || local.getUTCMonth() + 1 !== Number(month) || local.getUTCDate() !== Number(day)) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  return date;
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}
