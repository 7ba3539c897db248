// Studies archive (spec 2.11): summary, month groups newest first, each study's lines.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Study } from '@vault/contracts';
import StudiesArchiveScreen from './studies-archive';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const done = (id: string, subject: string, completedAt: string | null): Study => ({
  id,
  subject,
  endGoal: `Goal of ${id}`,
  completed: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt,
});

function statValue(label: string): string {
  return screen.getByText(label, { selector: 'dt' }).parentElement!.querySelector('dd')!.textContent ?? '';
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('StudiesArchiveScreen', () => {
  it('counts studies, distinct subjects and months, and lists the groups newest first', async () => {
    mockFetch({
      'GET /api/studies/completed': () =>
        json([
          done('a', 'Chess', new Date(2026, 9, 3, 9, 0).toISOString()),
          done('b', 'Chess', new Date(2026, 10, 22, 4, 5).toISOString()),
          done('c', 'Latin', null),
          done('d', 'Physics', new Date(2026, 10, 25, 16, 30).toISOString()),
        ]),
    });
    renderWithProviders(<StudiesArchiveScreen />);

    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((h) => h.textContent)).toEqual(['NOVEMBER 2026', 'OCTOBER 2026', 'Unknown']);
    expect(statValue('Completed Studies')).toBe('4');
    expect(statValue('Unique Subjects')).toBe('3');
    expect(statValue('Active Months')).toBe('3');

    const november = headings[0]!.closest('section')!;
    const items = within(november).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByText(/^Goal: /).textContent)).toEqual(['Goal: Goal of d', 'Goal: Goal of b']);
    expect(within(items[1]!).getByText('Chess')).toBeTruthy();
    expect(within(items[1]!).getByText('COMPLETED')).toBeTruthy();
    expect(within(items[1]!).getByText('Completed: November 22, 2026 at 4:05 AM')).toBeTruthy();
    expect(within(items[0]!).getByText('Completed: November 25, 2026 at 4:30 PM')).toBeTruthy();
    expect(within(headings[2]!.closest('section')!).getByText('Completed: Unknown date')).toBeTruthy();
  });

  it('shows dashes and the error when the archive cannot be read', async () => {
    mockFetch({ 'GET /api/studies/completed': () => text('', 503, 'Service Unavailable') });
    renderWithProviders(<StudiesArchiveScreen />);
    expect(await screen.findByText('503: Service Unavailable')).toBeTruthy();
    expect(statValue('Completed Studies')).toBe('—');
    expect(screen.queryByText('No completed studies yet')).toBeNull();
  });
});
