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
    format: (date) => {
      formatter ??= new Intl.DateTimeFormat('en-US', options);
      return formatter.format(date);
    },
  };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * "Sunday, November 22" (en-US, local time), as the dashboard's welcome shows
 * it: written out here, not with Intl, so that the dashboard's first render does
 * not pay for loading the browser's locale data.
 */
export function weekdayMonthDay(date: Date): string {
  return `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}`;
}
