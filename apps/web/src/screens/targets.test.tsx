import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Target } from '@vault/contracts';
import TargetsScreen from './targets';
import { navigation } from '../lib/navigation';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const active: Target = {
  id: 't1',
  title: 'Learn to fly',
  description: 'Start with gliders',
  completed: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  completedAt: null,
};
const done: Target = {
  id: 't2',
  title: 'Defeat the Joker',
  completed: true,
  createdAt: '2025-02-01T10:00:00.000Z',
  completedAt: '2025-02-10T10:00:00.000Z',
};

function statValue(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement!.querySelector('dd')!.textContent ?? '';
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TargetsScreen', () => {
  it('shows the loading texts first', () => {
    mockFetch({ 'GET /api/targets': () => new Promise<Response>(() => {}) });
    renderWithProviders(<TargetsScreen />);
    expect(screen.getByText('LOADING TARGET SYSTEM...')).toBeTruthy();
    expect(screen.getByText('Scanning target database...')).toBeTruthy();
  });

  it('renders stats, the active list and the eliminated list', async () => {
    mockFetch({ 'GET /api/targets': () => json([active, done]) });
    renderWithProviders(<TargetsScreen />);

    const activeList = (await screen.findByRole('heading', { name: 'Active Targets' })).closest('section')!;
    const eliminatedList = screen.getByRole('heading', { name: 'Eliminated Targets' }).closest('section')!;

    expect(statValue('Active Targets')).toBe('1');
    expect(statValue('Eliminated')).toBe('1');
    expect(statValue('Success Rate')).toBe('50%');

    expect(within(activeList).getByText('Learn to fly')).toBeTruthy();
    expect(within(activeList).getByText('Start with gliders')).toBeTruthy();
    expect(within(activeList).getByText('ACTIVE')).toBeTruthy();
    expect(within(activeList).getByText('Marked: Mar 1, 2025')).toBeTruthy();
    const completeBox = within(activeList).getByRole('checkbox', { name: 'Complete Learn to fly' }) as HTMLInputElement;
    expect(completeBox.checked).toBe(false);

    expect(within(eliminatedList).getByText('Defeat the Joker').className).toContain('line-through');
    expect(within(eliminatedList).getByText('ELIMINATED')).toBeTruthy();
    expect(within(eliminatedList).getByText('Eliminated: Feb 10, 2025')).toBeTruthy();
    const reactivateBox = within(eliminatedList).getByRole('checkbox', {
      name: 'Reactivate Defeat the Joker',
    }) as HTMLInputElement;
    expect(reactivateBox.checked).toBe(true);
  });

  it('shows the empty state without an eliminated list', async () => {
    mockFetch({ 'GET /api/targets': () => json([]) });
    renderWithProviders(<TargetsScreen />);

    expect(await screen.findByText('No active targets')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Eliminated Targets' })).toBeNull();
    expect(statValue('Success Rate')).toBe('0%');
    expect(statValue('Active Targets')).toBe('0');
  });

  it('marks a new target with trimmed fields and refetches the list', async () => {
    const user = userEvent.setup();
    const created: Target = { ...active, id: 't3', title: 'Stop Bane', description: undefined };
    let list: Target[] = [];
    const fetchMock = mockFetch({
      'GET /api/targets': () => json(list),
      'POST /api/targets': () => {
        list = [created];
        return json(created, 201);
      },
    });
    renderWithProviders(<TargetsScreen />);

    const button = (await screen.findByRole('button', { name: /Mark Target/ })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await user.type(screen.getByLabelText('Target Objective'), '   ');
    expect(button.disabled).toBe(true);
    await user.type(screen.getByLabelText('Target Objective'), 'Stop Bane  ');
    await user.type(screen.getByLabelText('Strategic Notes'), '   ');
    expect(button.disabled).toBe(false);
    await user.click(button);

    expect(await screen.findByText('Target Marked')).toBeTruthy();
    expect(screen.getByText('New target added to elimination list')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ title: 'Stop Bane' });
    expect(await screen.findByRole('checkbox', { name: 'Complete Stop Bane' })).toBeTruthy();
    expect((screen.getByLabelText('Target Objective') as HTMLInputElement).value).toBe('');
    expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/targets' && !init?.method)).toHaveLength(2);
  });

  it('eliminates and reactivates targets with toasts', async () => {
    const user = userEvent.setup();
    let list: Target[] = [active];
    const fetchMock = mockFetch({
      'GET /api/targets': () => json(list),
      'PATCH /api/targets/t1': (init) => {
        const { completed } = JSON.parse(String(init?.body)) as { completed: boolean };
        const updated = { ...active, completed, completedAt: completed ? '2025-03-02T10:00:00.000Z' : null };
        list = [updated];
        return json(updated);
      },
    });
    renderWithProviders(<TargetsScreen />);

    await user.click(await screen.findByRole('checkbox', { name: 'Complete Learn to fly' }));
    expect(await screen.findByText('Target Eliminated')).toBeTruthy();
    expect(screen.getByText('Objective successfully completed')).toBeTruthy();
    const reactivate = await screen.findByRole('checkbox', { name: 'Reactivate Learn to fly' });
    expect(screen.getByText('No active targets')).toBeTruthy();

    await user.click(reactivate);
    expect(await screen.findByText('Target Reactivated')).toBeTruthy();
    expect(screen.getByText('Target marked as active again')).toBeTruthy();
    await screen.findByRole('checkbox', { name: 'Complete Learn to fly' });

    const patches = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
    expect(patches.map(([, init]) => JSON.parse(String(init!.body)))).toEqual([{ completed: true }, { completed: false }]);
  });

  it('shows the error toast when an update fails', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/targets': () => json([active]),
      'PATCH /api/targets/t1': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<TargetsScreen />);
    await user.click(await screen.findByRole('checkbox', { name: 'Complete Learn to fly' }));
    expect(await screen.findByText('Failed to update target')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
  });

  it('reports a failed read instead of claiming there are no targets', async () => {
    mockFetch({ 'GET /api/targets': () => text('Service unavailable', 503, 'Service Unavailable') });
    renderWithProviders(<TargetsScreen />);
    expect(await screen.findByText('503: Service unavailable')).toBeTruthy();
    expect(screen.queryByText('No active targets')).toBeNull();
    for (const label of ['Active Targets', 'Eliminated', 'Success Rate']) expect(statValue(label)).toBe('—');
    // The form still works.
    expect(screen.getByLabelText('Target Objective')).toBeTruthy();
  });

  it('applies the Unauthorized rule when the list is refused', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/targets': () => text('Unauthorized', 401, 'Unauthorized') });
    renderWithProviders(<TargetsScreen />);

    expect(await screen.findByText('You are logged out. Logging in again...')).toBeTruthy();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'), { timeout: 2000 });
  });
});
