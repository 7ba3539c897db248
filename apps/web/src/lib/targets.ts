import type { Target } from '@vault/contracts';

export const TARGETS_KEY = ['/api/targets'] as const;

/** Success rate in whole percent: eliminated / all targets, 0 when there are none. */
export function successRate(eliminated: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((eliminated / total) * 100);
}

export interface TargetStats {
  active: number;
  eliminated: number;
  total: number;
  successRate: number;
}

export function targetStats(targets: readonly Target[]): TargetStats {
  const eliminated = targets.filter((t) => t.completed).length;
  const total = targets.length;
  return { active: total - eliminated, eliminated, total, successRate: successRate(eliminated, total) };
}

/** A short en-US date, e.g. "Nov 22, 2025"; empty when missing or invalid. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
