/** What the screens need of a date formatter. */
export interface DateFormat {
  format(date: Date | number): string;
}

/**
 * An en-US date formatter, built once on its first use and reused after.
 * Once: building one costs far more than using it (a new one per row took most
 * of a long list's render). On first use, not when its module loads: a page's
 * first `Intl.DateTimeFormat` loads the browser's locale data (about 40 ms on
 * this project's machine), which the login screen never needs and which would
 * otherwise lengthen the main script's evaluation.
 */
export function enUsDateFormat(options: Intl.DateTimeFormatOptions): DateFormat {
  let formatter: Intl.DateTimeFormat | undefined;
  return {
    format: (date) => (formatter ??= new Intl.DateTimeFormat('en-US', options)).format(date),
  };
}
