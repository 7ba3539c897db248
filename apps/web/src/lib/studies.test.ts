import { describe, expect, it } from 'vitest';
import type { Study } from '@vault/contracts';
import { archiveSummary, formatCompletedAt, groupByMonth, studyBody } from './studies';

const study = (id: string, subject: string, completedAt: string | null): Study => ({
  id,
  subject,
  endGoal: `Goal ${id}`,
  completed: true,
  createdAt: '2024-12-01T12:00:00.000Z',
  completedAt,
});

// Mid-month, mid-day: the same month in every time zone.
const list = [
  study('a', 'Spanish', '2025-01-15T12:00:00.000Z'),
  study('b', 'Chess', '2025-03-10T12:00:00.000Z'),
  study('c', 'Spanish', '2025-03-20T12:00:00.000Z'),
  study('d', 'Physics', null),
];

describe('groupByMonth', () => {
  it('groups by month, newest group and newest study first, undated last as Unknown', () => {
    const groups = groupByMonth(list);
    expect(groups.map((g) => g.label)).toEqual(['MARCH 2025', 'JANUARY 2025', 'Unknown']);
    expect(groups[0]!.studies.map((s) => s.id)).toEqual(['c', 'b']);
    expect(groups[2]!.studies.map((s) => s.id)).toEqual(['d']);
  });

  it('puts several studies of one month together, from different years apart, in local time', () => {
    const groups = groupByMonth([
      study('x', 'A', new Date(2026, 10, 2, 9).toISOString()),
      study('y', 'B', new Date(2025, 10, 30, 23).toISOString()),
      study('z', 'C', new Date(2026, 10, 28, 1).toISOString()),
    ]);
    expect(groups.map((g) => g.label)).toEqual(['NOVEMBER 2026', 'NOVEMBER 2025']);
    expect(groups[0]!.studies.map((s) => s.id)).toEqual(['z', 'x']);
  });

  it('treats an unparseable completion date as unknown', () => {
    expect(groupByMonth([study('q', 'Q', 'yesterday')]).map((g) => g.label)).toEqual(['Unknown']);
  });

  it('is empty for no studies', () => {
    expect(groupByMonth([])).toEqual([]);
  });
});

describe('archiveSummary', () => {
  it('counts studies, distinct subjects and month groups', () => {
    expect(archiveSummary(list)).toEqual({ completed: 4, uniqueSubjects: 3, activeMonths: 3 });
  });
});

describe('formatCompletedAt', () => {
  it('is a long en-US date with time, or "Unknown date"', () => {
    expect(formatCompletedAt(new Date(2026, 10, 22, 4, 5).toISOString())).toBe('November 22, 2026 at 4:05 AM');
    expect(formatCompletedAt(new Date(2026, 0, 1, 0, 30).toISOString())).toBe('January 1, 2026 at 12:30 AM');
    expect(formatCompletedAt(new Date(2026, 0, 1, 16, 5).toISOString())).toBe('January 1, 2026 at 4:05 PM');
    expect(formatCompletedAt(null)).toBe('Unknown date');
    expect(formatCompletedAt('not a date')).toBe('Unknown date');
  });
});

describe('studyBody', () => {
  it('needs both fields after trimming', () => {
    expect(studyBody(' Chess ', ' Reach 1500 ')).toEqual({ subject: 'Chess', endGoal: 'Reach 1500' });
    expect(studyBody('Chess', '  ')).toBeNull();
    expect(studyBody(' ', 'Goal')).toBeNull();
  });
});
