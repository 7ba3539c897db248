import { afterEach, describe, expect, it, vi } from 'vitest';
import { enUsDateFormat } from './date-format';

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
