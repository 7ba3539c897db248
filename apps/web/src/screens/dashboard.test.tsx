import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Target } from '@vault/contracts';
import DashboardScreen from './dashboard';
import { todayUtcDate, todayUtcWeekday } from '../lib/schedule';
import { json, mockFetch, renderWithProviders, text, type RouteHandler } from '../test/utils';

const today = todayUtcDate();
const weekday = todayUtcWeekday();
const SCHEDULE = `GET /api/schedule/${today}`;
const TEMPLATES = `GET /api/weekly-templates/${weekday}`;

const target = (id: string, title: string, completed: boolean): Target => ({
  id,
  title,
  completed,
  createdAt: '2025-03-01T10:00:00.000Z',
  completedAt: completed ? '2025-03-02T10:00:00.000Z' : null,
});

/** Every dashboard read answering an empty list, unless overridden. */
function emptyVault(overrides: Record<string, RouteHandler> = {}) {
  return mockFetch({
    'GET /api/user': () => json({ name: 'Bruce', username: 'bruce' }),
    'GET /api/journal': () => json([]),
    'GET /api/journal/count': () => json({ count: 0 }),
    'GET /api/targets': () => json([]),
    [SCHEDULE]: () => json([]),
    [TEMPLATES]: () => json([]),
    'GET /api/studies': () => json([]),
    'GET /api/activities': () => json([]),
    ...overrides,
  });
}

function card(title: string): HTMLElement {
  return screen.getByRole('heading', { name: title }).closest('section')!;
}

function statValue(label: string): string {
  return screen.getByText(label, { selector: 'dt' }).parentElement!.querySelector('dd')!.textContent ?? '';
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DashboardScreen', () => {
  it('shows the stat row and every card with its empty text', async () => {
    emptyVault({
      'GET /api/journal/count': () => json({ count: 1 }),
      'GET /api/targets': () => json([target('t1', 'Joker', true), target('t2', 'Bane', false)]),
    });
    renderWithProviders(<DashboardScreen />);

    expect(screen.getByRole('heading', { level: 1, name: 'COMMAND CENTER' })).toBeTruthy();
    expect(await screen.findByText('Welcome back, Bruce')).toBeTruthy();
    await waitFor(() => expect(statValue('Journal Entries')).toBe('1'));
    expect(statValue('Targets Eliminated')).toBe('1');
    expect(screen.getByRole('figure').querySelector('blockquote')?.textContent).toBeTruthy();

    expect(
      await within(card('MISSION SCHEDULE')).findByText('No Schedule Today - Create templates in SCHEDULE section, then apply them to today.'),
    ).toBeTruthy();
    expect(within(card('TARGETS')).getByPlaceholderText('Identify new target...')).toBeTruthy();
    expect(within(card('INTELLIGENCE LOG')).getByPlaceholderText("Record today's strategic insights...")).toBeTruthy();
    expect(within(card('INTELLIGENCE LOG')).getByText('Auto-encrypted')).toBeTruthy();
    expect(await within(card("TODAY'S STUDIES")).findByText('No studies added for today. Add your first study below!')).toBeTruthy();
    expect(within(card("TODAY'S STUDIES")).getByRole('link', { name: 'Archive' }).getAttribute('href')).toBe('/studies-archive');
    expect(within(card('MISSION GENERATOR')).getByText('YOUR CUSTOM MISSIONS')).toBeTruthy();
    expect(await within(card('MISSION LOG')).findByText('No recent mission activity')).toBeTruthy();
  });

  it('never shows a made-up count: a failed read shows a dash and the card says so', async () => {
    emptyVault({ 'GET /api/journal/count': () => text('Not found', 404, 'Not Found') });
    renderWithProviders(<DashboardScreen />);
    await waitFor(() => expect(statValue('Journal Entries')).toBe('—'));
  });

  it('shows the empty texts of TARGETS, and reports a failed read in the card', async () => {
    emptyVault({ 'GET /api/studies': () => text('Service unavailable', 503, 'Service Unavailable') });
    renderWithProviders(<DashboardScreen />);
    expect(await within(card('TARGETS')).findByText('No targets identified')).toBeTruthy();
    expect(await within(card("TODAY'S STUDIES")).findByText('503: Service unavailable')).toBeTruthy();
    expect(within(card("TODAY'S STUDIES")).queryByText(/No studies added/)).toBeNull();
  });

  it("offers today's templates and applies them to today's UTC date", async () => {
    const user = userEvent.setup();
    const fetchMock = emptyVault({
      [TEMPLATES]: () =>
        json([
          { id: 'w2', title: 'Patrol', time: '21:00', dayOfWeek: weekday, isRepeating: true },
          { id: 'w1', title: 'Briefing', time: '07:05', dayOfWeek: weekday, isRepeating: true },
        ]),
      'POST /api/schedule/apply-weekly-template': () => json([]),
    });
    renderWithProviders(<DashboardScreen />);
    const schedule = card('MISSION SCHEDULE');

    expect(await within(schedule).findByText('No active missions. Available templates:')).toBeTruthy();
    const items = within(schedule)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['7:05 AMBriefing', '9:00 PMPatrol']);
    await user.click(within(schedule).getByRole('button', { name: /Apply Templates to Today/ }));

    expect(await screen.findByText('Templates Applied')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/schedule/apply-weekly-template');
    expect(JSON.parse(String(post[1]!.body))).toEqual({ date: today });
  });

  it("lists today's active missions and logs the completed ones", async () => {
    emptyVault({
      [SCHEDULE]: () =>
        json([
          { id: 's1', time: '08:00', title: 'Recon', description: 'North side', completed: false },
          { id: 's2', time: '06:00', title: 'Workout', completed: true },
        ]),
    });
    renderWithProviders(<DashboardScreen />);
    expect(await within(card('MISSION SCHEDULE')).findByText('Recon')).toBeTruthy();
    expect(within(card('MISSION SCHEDULE')).getByText('North side')).toBeTruthy();
    expect(within(card('MISSION SCHEDULE')).queryByText('Workout')).toBeNull();
    const log = card('MISSION LOG');
    expect(within(log).getByText('Mission Completed: Workout')).toBeTruthy();
    expect(within(log).getByText('COMPLETE')).toBeTruthy();
  });

  it('adds a target with Enter and ticks one off', async () => {
    const user = userEvent.setup();
    let list = [target('t1', 'Joker', false)];
    const fetchMock = emptyVault({
      'GET /api/targets': () => json(list),
      'POST /api/targets': (init) => {
        const body = JSON.parse(String(init?.body)) as { title: string };
        list = [...list, target('t2', body.title, false)];
        return json(list[1], 201);
      },
      'PATCH /api/targets/t1': () => {
        list = [target('t1', 'Joker', true), ...list.slice(1)];
        return json(list[0]);
      },
    });
    renderWithProviders(<DashboardScreen />);
    const targets = card('TARGETS');

    await user.type(await within(targets).findByPlaceholderText('Identify new target...'), '  Riddler {Enter}');
    expect(await screen.findByText('Target Marked')).toBeTruthy();
    expect(await within(targets).findByText('Riddler')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ title: 'Riddler' });

    await user.click(within(targets).getByRole('checkbox', { name: 'Joker' }));
    expect(await screen.findByText('Target Eliminated')).toBeTruthy();
    await waitFor(() => expect(within(targets).getByText('Joker').className).toContain('line-through'));
  });

  it('stores an intelligence log entry with the content only', async () => {
    const user = userEvent.setup();
    const fetchMock = emptyVault({ 'POST /api/journal': () => json({ id: 'j1' }, 201) });
    renderWithProviders(<DashboardScreen />);
    const log = card('INTELLIGENCE LOG');
    const button = within(log).getByRole('button', { name: /Encrypt & Store/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);

    await user.type(within(log).getByPlaceholderText("Record today's strategic insights..."), 'Gotham is quiet');
    await user.click(button);
    expect(await screen.findByText('Intelligence Logged')).toBeTruthy();
    expect(screen.getByText('Entry encrypted and stored securely')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ content: 'Gotham is quiet' });
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/journal/count').length).toBeGreaterThanOrEqual(2));
  });

  it('reports a failed study with the spec text', async () => {
    const user = userEvent.setup();
    emptyVault({ 'POST /api/studies': () => text('Not found', 404, 'Not Found') });
    renderWithProviders(<DashboardScreen />);
    const studies = card("TODAY'S STUDIES");
    await user.click(within(studies).getByRole('button', { name: 'Add New Study' }));
    await user.type(within(studies).getByLabelText('Subject'), 'Chess');
    await user.type(within(studies).getByLabelText('End Goal'), 'Reach 1500');
    await user.click(within(studies).getByRole('button', { name: 'Add Study' }));
    expect(await screen.findByText('Failed to add study')).toBeTruthy();
  });
});

// Issue 17: the stat row's four cards had unequal heights (the two counts were
// cards inside a plain <dl>, which the grid stretched, but not the card in it).
describe('stat row', () => {
  it("gives each of its four cards the row's height", async () => {
    emptyVault();
    renderWithProviders(<DashboardScreen />);
    const welcome = (await screen.findByText('Welcome back, Bruce')).closest('section')!;
    const row = welcome.parentElement!;
    const classes = (el: Element) => el.className.split(/\s+/);
    expect(classes(row)).toContain('grid');
    const items = Array.from(row.children);
    expect(items).toHaveLength(4);
    for (const item of items) {
      // A grid item is stretched to the row's height: either it is the card, or it
      // is a grid itself whose one child (the card) is stretched in turn.
      if (classes(item).includes('panel')) continue;
      expect(classes(item)).toContain('grid');
      expect(item.children).toHaveLength(1);
      expect(classes(item.children[0]!)).toContain('panel');
    }
    await waitFor(() => expect(statValue('Journal Entries')).toBe('0'));
    expect(statValue('Targets Eliminated')).toBe('0');
  });
});
