// Weekly schedule screen (spec 2.8): delete, apply, today's mission log, pending and failure states.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScheduleItem, WeeklyTemplate } from '@vault/contracts';
import WeeklyScheduleScreen from './weekly-schedule';
import { navigation } from '../lib/navigation';
import { todayUtcDate, todayUtcWeekday } from '../lib/schedule';
import { weekdayName } from '../lib/weekly-templates';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const today = todayUtcDate();
const weekday = todayUtcWeekday();
const todayName = weekdayName(weekday);
const otherDay = (weekday + 3) % 7;

const template = (id: string, title: string, time: string, dayOfWeek = weekday): WeeklyTemplate => ({
  id,
  title,
  time,
  dayOfWeek,
  isRepeating: true,
});

const item = (id: string, title: string, time: string, completed: boolean, description?: string): ScheduleItem => ({
  id,
  date: today,
  time,
  title,
  ...(description ? { description } : {}),
  completed,
  completedAt: completed ? `${today}T06:00:00.000Z` : null,
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WeeklyScheduleScreen', () => {
  it('deletes a template with UNDO: nothing is sent until the toast goes; a failed delete brings it back', async () => {
    const user = userEvent.setup();
    let templates = [template('a', 'Briefing', '07:00', 1), template('b', 'Patrol', '21:00', 1)];
    const fetchMock = mockFetch({
      'GET /api/weekly-templates': () => json(templates),
      [`GET /api/schedule/${today}`]: () => json([]),
      'DELETE /api/weekly-templates/a': () => {
        templates = templates.filter((t) => t.id !== 'a');
        return json({ id: 'a' });
      },
      'DELETE /api/weekly-templates/b': () => text('Template not found', 404, 'Not Found'),
    });
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => url);
    renderWithProviders(<WeeklyScheduleScreen />);
    const panel = await screen.findByRole('tabpanel');
    expect(within(panel).getByText('7:00 AM')).toBeTruthy();

    // Deleted by mistake: out of the list at once, back with UNDO, and nothing was sent.
    await user.click(within(panel).getByRole('button', { name: 'Delete Briefing' }));
    expect(await screen.findByText('Template Deleted')).toBeTruthy();
    expect(within(panel).queryByText('Briefing')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'UNDO' }));
    expect(within(panel).getByText('Briefing')).toBeTruthy();
    expect(deletes()).toEqual([]);

    // Meant: the DELETE goes when the toast goes (closed here), then the list is read again.
    await user.click(within(panel).getByRole('button', { name: 'Delete Briefing' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    await waitFor(() => expect(deletes()).toEqual(['/api/weekly-templates/a']));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/weekly-templates' && !init?.method)).toHaveLength(2));
    expect(within(panel).queryByText('Briefing')).toBeNull();

    await user.click(within(panel).getByRole('button', { name: 'Delete Patrol' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    expect(await screen.findByText('Failed to delete template')).toBeTruthy();
    expect(screen.getByText('Template not found')).toBeTruthy();
    expect(await within(panel).findByText('Patrol')).toBeTruthy();
  });

  it('says whether each template repeats, and edits one in place (PATCH with the whole template)', async () => {
    const user = userEvent.setup();
    let templates: WeeklyTemplate[] = [template('a', 'Briefing', '07:00', 1), { ...template('b', 'Dentist', '15:30', 1), isRepeating: false }];
    const fetchMock = mockFetch({
      'GET /api/weekly-templates': () => json(templates),
      [`GET /api/schedule/${today}`]: () => json([]),
      'PATCH /api/weekly-templates/a': (init) => {
        const body = JSON.parse(String(init?.body)) as Omit<WeeklyTemplate, 'id'>;
        templates = templates.map((t) => (t.id === 'a' ? { ...body, id: 'a' } : t));
        return json(templates[0]);
      },
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    const panel = await screen.findByRole('tabpanel');
    const briefing = (await within(panel).findByText('Briefing')).closest('li')!;
    const dentist = within(panel).getByText('Dentist').closest('li')!;
    expect(within(briefing).getByText('WEEKLY')).toBeTruthy();
    expect(within(dentist).getByText('ONE-TIME')).toBeTruthy();

    await user.click(within(briefing).getByRole('button', { name: 'Edit Briefing' }));
    const form = screen.getByRole('form', { name: 'Edit Briefing' });
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Morning briefing');
    await user.click(within(form).getByLabelText('Repeating weekly (uncheck for one-time missions that delete after completion)'));
    await user.click(within(form).getByRole('button', { name: /Save Changes/ }));
    expect(await screen.findByText('Template Updated')).toBeTruthy();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch[1]!.body))).toEqual({ title: 'Morning briefing', description: '', time: '07:00', isRepeating: false, dayOfWeek: 1 });
    const edited = (await within(panel).findByText('Morning briefing')).closest('li')!;
    expect(within(edited).getByText('ONE-TIME')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Edit Briefing' })).toBeNull();
  });

  it('puts ADD TEMPLATE before the list in the page, so a phone shows it first', async () => {
    mockFetch({
      'GET /api/weekly-templates': () => json(Array.from({ length: 12 }, (_, i) => template(`t${i}`, `Task ${i}`, `0${i % 10}:00`, 1))),
      [`GET /api/schedule/${today}`]: () => json([]),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    const list = await screen.findByRole('list', { name: 'Monday templates' });
    const form = screen.getByRole('heading', { name: /ADD TEMPLATE/ });
    expect(form.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('applies to today: "Applying..." while pending, then today\'s tab shows Today\'s Mission Log', async () => {
    const user = userEvent.setup();
    let items: ScheduleItem[] = [item('s0', 'Workout', '06:00', true)];
    let release: (response: Response) => void = () => {};
    const fetchMock = mockFetch({
      'GET /api/weekly-templates': () => json([template('a', 'Briefing', '13:05')]),
      [`GET /api/schedule/${today}`]: () => json(items),
      'POST /api/schedule/apply-weekly-template': () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    await user.click(await screen.findByRole('tab', { name: todayName }));
    expect(screen.getByText(`For ${todayName}`)).toBeTruthy();
    expect(screen.getByText('1:05 PM')).toBeTruthy();

    const log = () => screen.getByRole('heading', { name: "Today's Mission Log" }).parentElement!;
    const done = within(log()).getByText('Workout').closest('li')!;
    expect(within(done).getByText('COMPLETED')).toBeTruthy();
    expect(within(done).getByText('06:00')).toBeTruthy();
    expect(within(done).getByText('Workout').parentElement!.className).toContain('line-through');

    await user.click(screen.getByRole('button', { name: /Apply to Today/ }));
    expect((screen.getByRole('button', { name: /Applying\.\.\./ }) as HTMLButtonElement).disabled).toBe(true);
    items = [item('s0', 'Workout', '06:00', true), item('s1', 'Briefing', '13:05', false, 'Coffee first')];
    release(json(items));
    expect(await screen.findByText('Template Applied')).toBeTruthy();
    const active = (await within(log()).findByText('Briefing')).closest('li')!;
    expect(within(active).getByText('ACTIVE')).toBeTruthy();
    expect(within(active).getByText('13:05')).toBeTruthy();
    expect(within(active).getByText('Coffee first')).toBeTruthy();
    expect(within(active).getByText('Briefing').parentElement!.className).not.toContain('line-through');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ date: today });
    expect((screen.getByRole('button', { name: /Apply to Today/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows Today's Mission Log only on today's tab", async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/weekly-templates': () => json([]),
      [`GET /api/schedule/${today}`]: () => json([item('s0', 'Workout', '06:00', false)]),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    await user.click(await screen.findByRole('tab', { name: weekdayName(otherDay) }));
    expect(screen.getByText(`No templates for ${weekdayName(otherDay)}`)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: "Today's Mission Log" })).toBeNull();
    await user.click(screen.getByRole('tab', { name: todayName }));
    expect(await screen.findByRole('heading', { name: "Today's Mission Log" })).toBeTruthy();
  });

  it('ignores a submit while the title is blank or no time is chosen, and while a create is pending', async () => {
    const user = userEvent.setup();
    let calls = 0;
    let release: (response: Response) => void = () => {};
    mockFetch({
      'GET /api/weekly-templates': () => json([]),
      [`GET /api/schedule/${today}`]: () => json([]),
      'POST /api/weekly-templates': () => {
        calls += 1;
        return new Promise<Response>((resolve) => {
          release = resolve;
        });
      },
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    const title = await screen.findByPlaceholderText('Morning briefing...');
    await user.type(title, '   {Enter}');
    await user.type(screen.getByLabelText('Time'), '07:00');
    await user.type(title, '{Enter}');
    expect(calls).toBe(0);

    await user.type(title, 'Briefing');
    await user.click(screen.getByRole('button', { name: /Create Template/ }));
    const pending = screen.getByRole('button', { name: /Creating\.\.\./ }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    await user.type(title, '{Enter}');
    expect(calls).toBe(1);
    release(text('', 500, 'Internal Server Error'));
    expect(await screen.findByText('Failed to create template')).toBeTruthy();
    // The draft is kept for another try.
    expect((title as HTMLInputElement).value).toBe('   Briefing');
  });

  it('sends a one-time template when the box is unticked, and clears the form after "Template Created"', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/weekly-templates': () => json([]),
      [`GET /api/schedule/${today}`]: () => json([]),
      'POST /api/weekly-templates': () => json(template('n', 'Dentist', '15:30', 0), 201),
    });
    renderWithProviders(<WeeklyScheduleScreen />);
    await user.click(await screen.findByRole('tab', { name: 'Sunday' }));
    await user.type(screen.getByPlaceholderText('Morning briefing...'), 'Dentist');
    await user.type(screen.getByLabelText('Time'), '15:30');
    await user.click(screen.getByLabelText('Repeating weekly (uncheck for one-time missions that delete after completion)'));
    await user.click(screen.getByRole('button', { name: /Create Template/ }));
    expect(await screen.findByText('Template Created')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toMatchObject({ title: 'Dentist', time: '15:30', isRepeating: false, dayOfWeek: 0 });
    await waitFor(() => expect((screen.getByPlaceholderText('Morning briefing...') as HTMLInputElement).value).toBe(''));
    expect((screen.getByLabelText('Repeating weekly (uncheck for one-time missions that delete after completion)') as HTMLInputElement).checked).toBe(true);
  });

  it('applies the Unauthorized rule when the templates are refused', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/weekly-templates': () => text('Unauthorized', 401, 'Unauthorized') });
    renderWithProviders(<WeeklyScheduleScreen />);
    expect(await screen.findByText('Unauthorized')).toBeTruthy();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeTruthy();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'), { timeout: 2000 });
  });
});
