import { describe, expect, it } from 'vitest';
import { formatTime12h, sortByTime, templateBody, WEEKDAYS, weekdayName } from './weekly-templates';

describe('weekdays', () => {
  it('are seven tabs MON to SUN with Sunday as 0', () => {
    expect(WEEKDAYS.map((d) => d.short)).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    expect(WEEKDAYS.map((d) => d.value)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(weekdayName(0)).toBe('Sunday');
  });
});

describe('formatTime12h', () => {
  it('shows 12-hour time with AM/PM, hour 0 as 12 AM', () => {
    expect(formatTime12h('13:05')).toBe('1:05 PM');
    expect(formatTime12h('00:00')).toBe('12:00 AM');
    expect(formatTime12h('00:30')).toBe('12:30 AM');
    expect(formatTime12h('12:00')).toBe('12:00 PM');
    expect(formatTime12h('09:15')).toBe('9:15 AM');
    expect(formatTime12h('23:59')).toBe('11:59 PM');
  });

  it('shows anything else as it is', () => {
    expect(formatTime12h('soon')).toBe('soon');
    expect(formatTime12h('25:00')).toBe('25:00');
    expect(formatTime12h('12:75')).toBe('12:75');
  });
});

describe('sortByTime', () => {
  it('sorts ascending by HH:MM without changing the input', () => {
    const items = [{ time: '13:00' }, { time: '07:30' }, { time: '09:00' }];
    expect(sortByTime(items).map((i) => i.time)).toEqual(['07:30', '09:00', '13:00']);
    expect(items[0]!.time).toBe('13:00');
  });
});

describe('templateBody', () => {
  const draft = { title: '  Morning briefing ', time: '07:00', description: ' Coffee ', isRepeating: true };

  it('refuses a blank title or a missing time', () => {
    expect(templateBody({ ...draft, title: '   ' }, 1)).toBeNull();
    expect(templateBody({ ...draft, time: '' }, 1)).toBeNull();
  });

  it('trims and carries the selected day', () => {
    expect(templateBody(draft, 0)).toEqual({
      title: 'Morning briefing',
      time: '07:00',
      description: 'Coffee',
      isRepeating: true,
      dayOfWeek: 0,
    });
  });
});
