// The frames of the weekly schedule, journal, studies archive, balance and logs
// screens: title, loading text, empty state, failed read (spec 2.8 to 2.13).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import WeeklyScheduleScreen from './weekly-schedule';
import JournalScreen from './journal';
import StudiesArchiveScreen from './studies-archive';
import BonaparteScreen from './bonaparte';
import LogsScreen from './logs';
import { navigation } from '../lib/navigation';
import { todayUtcDate } from '../lib/schedule';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const pending = () => new Promise<Response>(() => {});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('weekly schedule', () => {
  const templates = [
    { id: 'a', title: 'Evening patrol', time: '21:30', dayOfWeek: 1, isRepeating: true },
    { id: 'b', title: 'Briefing', description: 'Coffee first', time: '00:15', dayOfWeek: 1, isRepeating: true },
    { id: 'c', title: 'Sunday rest', time: '10:00', dayOfWeek: 0, isRepeating: false },
  ];

  it('shows LOADING WEEKLY SCHEDULE... first', () => {
    mockFetch({ 'GET /api/weekly-templates': pending });
    renderWithProviders(<WeeklyScheduleScreen />);
    expect(screen.getByText('LOADING WEEKLY SCHEDULE...')).toBeTruthy();
  });

  it('has seven day tabs with Monday selected, its templates by time, and the empty day text', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/weekly-templates': () => json(templates), [`GET /api/schedule/${todayUtcDate()}`]: () => json([]) });
    renderWithProviders(<WeeklyScheduleScreen />);

    expect(await screen.findByRole('heading', { level: 1, name: 'WEEKLY SCHEDULE TEMPLATES' })).toBeTruthy();
    expect(screen.getByText('Create different schedules for each day of the week')).toBeTruthy();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('MON');
    expect(screen.getByText('For Monday')).toBeTruthy();

    const panel = screen.getByRole('tabpanel');
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['12:15 AMWEEKLYBriefingCoffee first', '9:30 PMWEEKLYEvening patrol']);

    // Arrow keys move between the tabs (and select).
    screen.getByRole('tab', { name: 'Monday' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('SUN');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Sunday' }));
    expect(within(screen.getByRole('tabpanel')).getByText('Sunday rest')).toBeTruthy();
    expect(screen.getByText('For Sunday')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Wednesday' }));
    expect(screen.getByText('No templates for Wednesday')).toBeTruthy();
    expect(screen.getByText('Add your first template to get started')).toBeTruthy();
  });

  it('creates a template for the selected day, repeating by default', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/weekly-templates': () => json([]),
      'POST /api/weekly-templates': () => json({ id: 'n' }, 201),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    await user.click(await screen.findByRole('tab', { name: 'Friday' }));

    const create = screen.getByRole('button', { name: /Create Template/ }) as HTMLButtonElement;
    await user.type(screen.getByPlaceholderText('Morning briefing...'), '   ');
    expect(create.disabled).toBe(true);
    await user.type(screen.getByPlaceholderText('Morning briefing...'), 'Gym');
    expect(create.disabled).toBe(true); // no time yet
    await user.type(screen.getByLabelText('Time'), '06:30');
    await user.type(screen.getByPlaceholderText('Template objectives...'), 'Legs');
    expect((screen.getByLabelText('Repeating weekly (uncheck for one-time missions that delete after completion)') as HTMLInputElement).checked).toBe(true);
    await user.click(create);

    expect(await screen.findByText('Template Created')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({
      title: 'Gym',
      description: 'Legs',
      time: '06:30',
      isRepeating: true,
      dayOfWeek: 5,
    });
  });

  it('reports a failed Apply to Today', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/weekly-templates': () => json([]),
      'POST /api/schedule/apply-weekly-template': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    await user.click(await screen.findByRole('button', { name: /Apply to Today/ }));
    expect(await screen.findByText('Failed to apply template')).toBeTruthy();
  });
});

describe('journal', () => {
  it('shows its two loading texts first', () => {
    mockFetch({ 'GET /api/journal': pending });
    renderWithProviders(<JournalScreen />);
    expect(screen.getByText('ACCESSING INTELLIGENCE VAULT...')).toBeTruthy();
    expect(screen.getByText('Decrypting intelligence files...')).toBeTruthy();
  });

  it('shows the empty photo vault, the new-entry form and the empty list', async () => {
    mockFetch({ 'GET /api/journal': () => json([]), 'GET /api/photos': () => json([]) });
    renderWithProviders(<JournalScreen />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Intelligence Vault' })).toBeTruthy();
    expect(await screen.findByText('No photos uploaded yet')).toBeTruthy();
    expect(screen.getByText('Your secure photo vault is empty')).toBeTruthy();
    expect(screen.getByText('No intelligence logs found')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Encrypt & Store/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists entries with line breaks kept and the update time', async () => {
    mockFetch({
      'GET /api/journal': () =>
        json([
          {
            id: 'j1',
            title: 'Op Nightfall',
            content: 'Line one\nLine two',
            createdAt: '2025-03-01T10:00:00Z',
            updatedAt: '2025-03-02T10:00:00Z',
          },
        ]),
    });
    renderWithProviders(<JournalScreen />);
    expect(await screen.findByRole('heading', { name: 'Op Nightfall' })).toBeTruthy();
    const content = screen.getByText(/Line one/);
    expect(content.textContent).toBe('Line one\nLine two');
    // Markdown with every line break kept: a <br> where the owner pressed Enter.
    expect(content.querySelectorAll('br')).toHaveLength(1);
    expect(screen.getByText(/\(Updated: /)).toBeTruthy();
  });

  it('reports a failed read instead of claiming the vault is empty', async () => {
    mockFetch({ 'GET /api/journal': () => text('Not found', 404, 'Not Found') });
    renderWithProviders(<JournalScreen />);
    expect(await screen.findByText('404: Not found')).toBeTruthy();
    expect(screen.queryByText('No intelligence logs found')).toBeNull();
  });

  it('stores a new entry: title trimmed, content as typed', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/journal': () => json([]),
      'POST /api/journal': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<JournalScreen />);
    await user.type(await screen.findByLabelText('Title (optional)'), '  Op  ');
    await user.type(screen.getByLabelText('Intelligence'), ' Seen at dawn ');
    await user.click(screen.getByRole('button', { name: /Encrypt & Store/ }));
    expect(await screen.findByText('Failed to save journal entry')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ title: 'Op', content: ' Seen at dawn ' });
  });
});

describe('studies archive', () => {
  it('shows its two loading texts first', () => {
    mockFetch({ 'GET /api/studies/completed': pending });
    renderWithProviders(<StudiesArchiveScreen />);
    expect(screen.getByText('INITIALIZING ARCHIVE...')).toBeTruthy();
    expect(screen.getByText('Loading archive...')).toBeTruthy();
  });

  it('shows three zero summary cards and the empty text with its hint', async () => {
    mockFetch({ 'GET /api/studies/completed': () => json([]) });
    renderWithProviders(<StudiesArchiveScreen />);
    expect(await screen.findByText('No completed studies yet')).toBeTruthy();
    expect(screen.getByText(/Complete studies from the dashboard/)).toBeTruthy();
    for (const label of ['Completed Studies', 'Unique Subjects', 'Active Months']) {
      expect(screen.getByText(label, { selector: 'dt' }).parentElement!.querySelector('dd')!.textContent).toBe('0');
    }
  });

  it('groups completed studies by month', async () => {
    mockFetch({
      'GET /api/studies/completed': () =>
        json([
          { id: 'a', subject: 'Chess', endGoal: 'Reach 1500', completed: true, completedAt: '2025-03-15T12:00:00Z' },
          { id: 'b', subject: 'Latin', endGoal: 'Read Caesar', completed: true, completedAt: null },
        ]),
    });
    renderWithProviders(<StudiesArchiveScreen />);
    expect(await screen.findByRole('heading', { name: 'MARCH 2025' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Unknown' })).toBeTruthy();
    expect(screen.getByText('Goal: Reach 1500')).toBeTruthy();
    expect(screen.getByText('Completed: Unknown date')).toBeTruthy();
    expect(screen.getAllByText('COMPLETED')).toHaveLength(2);
  });
});

describe('balance', () => {
  it('shows 1,000,000,000 when the server returns none, and Subtract is disabled while empty', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/bonaparte/balance': () => json(null) });
    renderWithProviders(<BonaparteScreen />);
    expect(await screen.findByText('1,000,000,000')).toBeTruthy();
    const input = screen.getByPlaceholderText('Enter amount') as HTMLInputElement;
    expect(input.type).toBe('number');
    expect(input.min).toBe('0');
    expect(input.required).toBe(true);
    const subtract = screen.getByRole('button', { name: 'Subtract' }) as HTMLButtonElement;
    expect(subtract.disabled).toBe(true);
    await user.type(input, '5');
    expect(subtract.disabled).toBe(false);
  });

  it('subtracts, refetches and clears the input', async () => {
    const user = userEvent.setup();
    let amount = 1_000_000_000;
    const fetchMock = mockFetch({
      'GET /api/bonaparte/balance': () => json({ amount }),
      'POST /api/bonaparte/subtract': (init) => {
        amount -= (JSON.parse(String(init?.body)) as { amount: number }).amount;
        return json({ amount });
      },
    });
    renderWithProviders(<BonaparteScreen />);
    const input = (await screen.findByPlaceholderText('Enter amount')) as HTMLInputElement;
    await user.type(input, '1234');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    expect(await screen.findByText('999,998,766')).toBeTruthy();
    expect(input.value).toBe('');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ amount: 1234 });
  });

  it('ignores an amount that is not above 0', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({ 'GET /api/bonaparte/balance': () => json({ amount: 10 }) });
    renderWithProviders(<BonaparteScreen />);
    await user.type(await screen.findByPlaceholderText('Enter amount'), '0');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('redirects at once and silently when the session is gone', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/bonaparte/balance': () => text('Unauthorized', 401, 'Unauthorized') });
    renderWithProviders(<BonaparteScreen />);
    await waitFor(() => expect(go).toHaveBeenCalledExactlyOnceWith('/api/login'));
    expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
  });

  it('subtracting with a lost session also redirects at once and silently', async () => {
    const user = userEvent.setup();
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({
      'GET /api/bonaparte/balance': () => json({ amount: 10 }),
      'POST /api/bonaparte/subtract': () => text('Unauthorized', 401, 'Unauthorized'),
    });
    renderWithProviders(<BonaparteScreen />);
    await user.type(await screen.findByPlaceholderText('Enter amount'), '1');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    await waitFor(() => expect(go).toHaveBeenCalledExactlyOnceWith('/api/login'));
    expect(screen.queryByText('Unauthorized')).toBeNull();
    expect(screen.queryByText('Failed to update balance')).toBeNull();
  });

  it('reports another failure with the spec text', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/bonaparte/balance': () => json({ amount: 10 }),
      'POST /api/bonaparte/subtract': () => text('amount: must be above 0', 400, 'Bad Request'),
    });
    renderWithProviders(<BonaparteScreen />);
    await user.type(await screen.findByPlaceholderText('Enter amount'), '3');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    expect(await screen.findByText('Failed to update balance')).toBeTruthy();
  });
});

describe('logs', () => {
  it('shows the title, the card and LOADING ACCESS LOGS... first', () => {
    mockFetch({ 'GET /api/logs': pending });
    renderWithProviders(<LogsScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'LOGS' })).toBeTruthy();
    expect(screen.getByText('Access Attempt Monitoring System')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'ACCESS ATTEMPTS' })).toBeTruthy();
    expect(screen.getByText('LOADING ACCESS LOGS...')).toBeTruthy();
  });

  it('shows the empty text', async () => {
    mockFetch({ 'GET /api/logs': () => json([]) });
    renderWithProviders(<LogsScreen />);
    expect(await screen.findByText('No access logs recorded')).toBeTruthy();
  });

  it('lists attempts with IP, user agent, action and time', async () => {
    mockFetch({
      'GET /api/logs': () =>
        json([
          {
            id: 'l1',
            ipAddress: '203.0.113.7',
            userAgent: 'Mozilla/5.0',
            action: 'login_failed',
            success: false,
            createdAt: '2025-03-01T10:00:00Z',
          },
        ]),
    });
    renderWithProviders(<LogsScreen />);
    const item = (await screen.findByText('LOGIN FAILED')).closest('li')!;
    expect(within(item).getByText('203.0.113.7')).toBeTruthy();
    expect(within(item).getByText('Mozilla/5.0')).toBeTruthy();
    expect(item.className).toContain('text-hero-red');
  });
});
