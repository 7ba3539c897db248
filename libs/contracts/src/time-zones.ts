/**
 * The local time of an instant in a named time zone, through one
 * Intl.DateTimeFormat per zone. Each formatter holds ICU's calendar and the
 * zone's rules in native memory (about 10 KB), given back only when a full
 * garbage collection finds its wrapper: made once per entry, they raised
 * the resident memory of an import of 10,000 Day One entries by 90 MB; made
 * once per request, they would do the same under load.
 */
const LOCAL_TIME = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

/** The zones seen (an IANA name is also valid in any letter case, so spellings are many): cleared when full, not grown without end. */
const FORMATTERS_KEPT = 256;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone the runtime knows, or undefined for a name it does not. */
function formatterOf(zone: string): Intl.DateTimeFormat | undefined {
  let formatter = formatters.get(zone);
  if (formatter) return formatter;
  try {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: zone, ...LOCAL_TIME });
  } catch {
    return undefined;
  }
  if (formatters.size >= FORMATTERS_KEPT) formatters.clear();
  formatters.set(zone, formatter);
  return formatter;
}

/** Whether the runtime knows `zone` as a time zone (an IANA name such as `Europe/Paris`, or `UTC`). */
export function isKnownTimeZone(zone: string): boolean {
  return formatterOf(zone) !== undefined;
}

/** `2024-03-05 14:03`: the instant's date and time in `zone`, or undefined for a zone the runtime does not know. */
export function localDateTime(at: Date, zone: string): string | undefined {
  const formatter = formatterOf(zone);
  if (!formatter) return undefined;
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
