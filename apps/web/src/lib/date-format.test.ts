import { afterEach, describe, expect, it, vi } from 'vitest';
import { enUsDateFormat, weekdayMonthDay } from './date-format';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('enUsDateFormat', () => {
  it('builds its formatter on first use only, once, and formats in en-US', () => {
    let built = 0;
    const Real = Intl.DateTimeFormat;
    class Counted extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        built += 1;
      }
    }
    vi.stubGlobal('Intl', Object.assign(Object.create(Intl), { DateTimeFormat: Counted }));

    const format = enUsDateFormat({ year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    expect(built).toBe(0);
    expect(format.format(new Date('2025-03-01T14:05:00Z'))).toBe('Mar 1, 2025');
    expect(format.format(Date.UTC(2025, 11, 31))).toBe('Dec 31, 2025');
    expect(built).toBe(1);
  });
});

describe('weekdayMonthDay', () => {
  it('writes what en-US Intl writes, on every day of a year', () => {
    const intl = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
    for (let day = 0; day < 366; day++) {
      const date = new Date(2024, 0, 1 + day, 12);
      expect(weekdayMonthDay(date)).toBe(intl.format(date));
    }
    expect(weekdayMonthDay(new Date(2026, 10, 22))).toBe('Sunday, November 22');
  });
});
