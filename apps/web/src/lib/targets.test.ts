import { describe, expect, it } from 'vitest';
import type { Target } from '@vault/contracts';
import { successRate, targetStats } from './targets';

const target = (id: string, completed: boolean): Target => ({
  id,
  title: `Target ${id}`,
  completed,
  createdAt: '2025-01-01T00:00:00.000Z',
  completedAt: completed ? '2025-01-02T00:00:00.000Z' : null,
});

describe('successRate', () => {
  it('is 0 when there are no targets', () => {
    expect(successRate(0, 0)).toBe(0);
  });

  it('rounds to a whole percent', () => {
    expect(successRate(1, 3)).toBe(33);
    expect(successRate(2, 3)).toBe(67);
    expect(successRate(1, 8)).toBe(13); // 12.5 rounds up
    expect(successRate(3, 3)).toBe(100);
  });
});

describe('targetStats', () => {
  it('counts active and eliminated targets', () => {
    expect(targetStats([target('1', true), target('2', false), target('3', false)])).toEqual({
      active: 2,
      eliminated: 1,
      total: 3,
      successRate: 33,
    });
  });

  it('handles an empty list', () => {
    expect(targetStats([])).toEqual({ active: 0, eliminated: 0, total: 0, successRate: 0 });
  });
});
