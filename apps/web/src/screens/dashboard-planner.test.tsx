// The dashboard's planner cards (spec 2.5 to 2.7): every per-item action and its toasts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScheduleItem, Study, Target } from '@vault/contracts';
import DashboardScreen from './dashboard';
import { MissionGeneratorCard } from '../components/dashboard/mission-generator';
import { StudiesCard } from '../components/dashboard/studies-card';
import { TargetsCard } from '../components/dashboard/targets-card';
import { BUILT_IN_MISSIONS } from '../lib/missions';
import { todayUtcDate, todayUtcWeekday } from '../lib/schedule';
import { json, mockFetch, renderWithProviders, text, type RouteHandler } from '../test/utils';

const today = todayUtcDate();
const weekday = todayUtcWeekday();
const SCHEDULE = `GET /api/schedule/${today}`;
const TEMPLATES = `GET /api/weekly-templates/${weekday}`;

/** A fetch answer that waits until the test lets it go. */
function deferred() {
  let release: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { handler: () => promise, release };
}

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

function bodyOf(fetchMock: ReturnType<typeof mockFetch>, method: string, url?: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([u, init]) => init?.method === method && (url === undefined || u === url))
    .map(([, init]) => (init?.body === undefined ? undefined : JSON.parse(String(init.body))));
}

function reads(fetchMock: ReturnType<typeof mockFetch>, url: string): number {
  return fetchMock.mock.calls.filter(([u, init]) => u === url && !init?.method).length;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('MISSION SCHEDULE', () => {
  const item = (id: string, title: string, time: string, completed = false): ScheduleItem => ({
    id,
    date: today,
    time,
    title,
    completed,
    completedAt: completed ? `${today}T08:00:00.000Z` : null,
  });

  it('completes a mission with the circle button; it moves to MISSION LOG and the lists are refetched', async () => {
    const user = userEvent.setup();
    let items = [item('s1', 'Recon', '08:00'), item('s2', 'Patrol', '21:00')];
    const fetchMock = emptyVault({
      [SCHEDULE]: () => json(items),
      'PATCH /api/schedule/s1': () => {
        items = [item('s1', 'Recon', '08:00', true), items[1]!];
        return json(items[0]);
      },
    });
    renderWithProviders(<DashboardScreen />);
    const schedule = card('MISSION SCHEDULE');

    await user.click(await within(schedule).findByRole('button', { name: 'Complete Recon' }));
    expect(await screen.findByText('Mission Complete')).toBeTruthy();
    expect(bodyOf(fetchMock, 'PATCH')).toEqual([{ completed: true }]);
    await waitFor(() => expect(within(schedule).queryByText('Recon')).toBeNull());
    expect(within(schedule).getByText('Patrol')).toBeTruthy();
    const log = card('MISSION LOG');
    const entry = within(log).getByText('Mission Completed: Recon').closest('li')!;
    expect(within(entry).getByText('08:00')).toBeTruthy();
    expect(within(entry).getByText('COMPLETE')).toBeTruthy();
    // The schedule and the weekday's templates (a one-time one is gone now) are read again.
    expect(reads(fetchMock, `/api/schedule/${today}`)).toBe(2);
  });

  it('disables the circle button while completing, and reports a failure', async () => {
    const user = userEvent.setup();
    const answer = deferred();
    emptyVault({ [SCHEDULE]: () => json([item('s1', 'Recon', '08:00')]), 'PATCH /api/schedule/s1': answer.handler });
    renderWithProviders(<DashboardScreen />);
    const button = (await screen.findByRole('button', { name: 'Complete Recon' })) as HTMLButtonElement;
    await user.click(button);
    expect(button.disabled).toBe(true);
    answer.release(text('', 500, 'Internal Server Error'));
    expect(await screen.findByText('Failed to complete mission')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    await waitFor(() => expect(button.disabled).toBe(false));
  });

  it('applies templates: "Applying..." while pending, then the missions replace the offer', async () => {
    const user = userEvent.setup();
    let applied = false;
    const answer = deferred();
    emptyVault({
      [SCHEDULE]: () => json(applied ? [item('s1', 'Briefing', '07:05')] : []),
      [TEMPLATES]: () => json([{ id: 'w1', title: 'Briefing', time: '07:05', dayOfWeek: weekday, isRepeating: true }]),
      'POST /api/schedule/apply-weekly-template': answer.handler,
    });
    renderWithProviders(<DashboardScreen />);
    const schedule = card('MISSION SCHEDULE');
    await user.click(await within(schedule).findByRole('button', { name: /Apply Templates to Today/ }));
    const pending = within(schedule).getByRole('button', { name: /Applying\.\.\./ }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    applied = true;
    answer.release(json([item('s1', 'Briefing', '07:05')]));
    expect(await screen.findByText('Templates Applied')).toBeTruthy();
    expect(await within(schedule).findByRole('button', { name: 'Complete Briefing' })).toBeTruthy();
    expect(within(schedule).queryByText('No active missions. Available templates:')).toBeNull();
  });

  it('reports a failed application', async () => {
    const user = userEvent.setup();
    emptyVault({
      [TEMPLATES]: () => json([{ id: 'w1', title: 'Briefing', time: '07:05', dayOfWeek: weekday, isRepeating: true }]),
      'POST /api/schedule/apply-weekly-template': () => text('', 503, 'Service Unavailable'),
    });
    renderWithProviders(<DashboardScreen />);
    await user.click(await screen.findByRole('button', { name: /Apply Templates to Today/ }));
    expect(await screen.findByText('Failed to apply templates')).toBeTruthy();
  });
});

describe("TODAY'S STUDIES", () => {
  const study = (id: string, subject: string, endGoal: string): Study => ({
    id,
    subject,
    endGoal,
    completed: false,
    createdAt: '2025-03-01T10:00:00.000Z',
    completedAt: null,
  });

  it('lists subject and end goal, completes one (to the archive) and deletes another', async () => {
    const user = userEvent.setup();
    let list = [study('s1', 'Chess', 'Reach 1500'), study('s2', 'Latin', 'Read Caesar')];
    const fetchMock = mockFetch({
      'GET /api/studies': () => json(list),
      'PATCH /api/studies/s1': () => {
        list = list.filter((s) => s.id !== 's1');
        return json({ ...study('s1', 'Chess', 'Reach 1500'), completed: true, completedAt: '2025-03-02T10:00:00.000Z' });
      },
      'DELETE /api/studies/s2': () => {
        list = list.filter((s) => s.id !== 's2');
        return new Response(JSON.stringify({ id: 's2' }), { status: 200 });
      },
    });
    renderWithProviders(<StudiesCard />);

    expect(await screen.findByText('End Goal: Reach 1500')).toBeTruthy();
    expect(screen.getByText('Chess')).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: 'Complete Chess' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await user.click(box);
    expect(await screen.findByText('Study Completed')).toBeTruthy();
    expect(screen.getByText('Study moved to the archive')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Chess')).toBeNull());
    expect(bodyOf(fetchMock, 'PATCH', '/api/studies/s1')).toEqual([{ completed: true }]);

    // Deleted: out of the list at once; UNDO brings it back, unsent.
    await user.click(screen.getByRole('button', { name: 'Delete Latin' }));
    expect(await screen.findByText('Study Deleted')).toBeTruthy();
    expect(await screen.findByText('No studies added for today. Add your first study below!')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'UNDO' }));
    expect(screen.getByText('Latin')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    // Deleted again, and sent when its toast goes.
    await user.click(screen.getByRole('button', { name: 'Delete Latin' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    await waitFor(() => expect(reads(fetchMock, '/api/studies')).toBe(3));
    expect(screen.getByText('No studies added for today. Add your first study below!')).toBeTruthy();
  });

  it('reports failed completion and deletion', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/studies': () => json([study('s1', 'Chess', 'Reach 1500')]),
      'PATCH /api/studies/s1': () => text('', 500, 'Internal Server Error'),
      'DELETE /api/studies/s1': () => text('Study not found', 404, 'Not Found'),
    });
    renderWithProviders(<StudiesCard />);
    await user.click(await screen.findByRole('checkbox', { name: 'Complete Chess' }));
    expect(await screen.findByText('Failed to complete study')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Complete Chess' }) as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete Chess' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    expect(await screen.findByText('Failed to delete study')).toBeTruthy();
    expect(await screen.findByText('Chess')).toBeTruthy();
  });

  it('adds a study from the toggled form: both fields required, "Adding..." while pending', async () => {
    const user = userEvent.setup();
    const answer = deferred();
    const fetchMock = mockFetch({ 'GET /api/studies': () => json([]), 'POST /api/studies': answer.handler });
    renderWithProviders(<StudiesCard />);
    const toggle = await screen.findByRole('button', { name: 'Add New Study' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Subject')).toBeNull();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    const subject = screen.getByLabelText('Subject') as HTMLInputElement;
    const goal = screen.getByLabelText('End Goal') as HTMLInputElement;
    expect(subject.placeholder).toMatch(/^e\.g\. /);
    expect(goal.placeholder).toMatch(/^e\.g\. /);
    const add = screen.getByRole('button', { name: 'Add Study' }) as HTMLButtonElement;
    await user.type(subject, ' Chess ');
    await user.type(goal, '   ');
    expect(add.disabled).toBe(true);
    await user.type(goal, 'Reach 1500');
    await user.click(add);
    expect((screen.getByRole('button', { name: 'Adding...' }) as HTMLButtonElement).disabled).toBe(true);
    answer.release(json(study('s9', 'Chess', 'Reach 1500'), 201));
    expect(await screen.findByText('Study Added')).toBeTruthy();
    expect(bodyOf(fetchMock, 'POST')).toEqual([{ subject: 'Chess', endGoal: 'Reach 1500' }]);
    await waitFor(() => expect(subject.value).toBe(''));
  });
});

describe('MISSION GENERATOR', () => {
  beforeEach(() => {
    // Math.random() of 0: the first mission of the pool, then the first other one.
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });

  const [first, second, third] = BUILT_IN_MISSIONS as [
    (typeof BUILT_IN_MISSIONS)[number],
    (typeof BUILT_IN_MISSIONS)[number],
    (typeof BUILT_IN_MISSIONS)[number],
  ];

  function current(): string {
    return screen.getByTestId('current-mission').textContent ?? '';
  }

  it('shows a mission with Show/Hide Details, and GENERATE never repeats it', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/activities': () => json([]) });
    renderWithProviders(<MissionGeneratorCard />);
    expect(current()).toBe(first.title);

    const toggle = screen.getByRole('button', { name: 'Show Details' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText(first.description!)).toBeNull();
    await user.click(toggle);
    expect(screen.getByText(first.description!)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide Details' }).getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Hide Details' }));
    expect(screen.queryByText(first.description!)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'GENERATE' }));
    expect(current()).toBe(second.title);
    await user.click(screen.getByRole('button', { name: 'GENERATE' }));
    expect(current()).toBe(first.title);

    vi.mocked(Math.random).mockRestore();
    for (let i = 0; i < 25; i++) {
      const before = current();
      await user.click(screen.getByRole('button', { name: 'GENERATE' }));
      expect(current()).not.toBe(before);
    }
  });

  it('GENERATE also draws from the custom missions', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/activities': () => json([{ id: 'c1', title: 'Learn three knots' }]) });
    renderWithProviders(<MissionGeneratorCard />);
    await screen.findByText('Learn three knots');
    vi.mocked(Math.random).mockReturnValue(0.99999);
    await user.click(screen.getByRole('button', { name: 'GENERATE' }));
    expect(current()).toBe('Learn three knots');
    // A custom mission without a description has no details to show.
    expect(screen.queryByRole('button', { name: 'Show Details' })).toBeNull();
  });

  it('saves the current mission with the plus button, then refuses it as "Already Exists"', async () => {
    const user = userEvent.setup();
    let custom: { id: string; title: string; description?: string }[] = [];
    const fetchMock = mockFetch({
      'GET /api/activities': () => json(custom),
      'POST /api/activities': (init) => {
        const body = JSON.parse(String(init?.body)) as { title: string; description?: string };
        custom = [...custom, { id: 'c1', ...body }];
        return json(custom.at(-1), 201);
      },
    });
    renderWithProviders(<MissionGeneratorCard />);
    expect(await screen.findByText('No custom missions yet')).toBeTruthy();

    const save = screen.getByRole('button', { name: 'Save mission to custom pool' });
    await user.click(save);
    expect(await screen.findByText('Mission Added')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Your custom missions' });
    expect(within(list).getByText(first.title)).toBeTruthy();
    expect(list.className).toContain('max-h-48');
    expect(list.className).toContain('overflow-y-auto');
    expect(bodyOf(fetchMock, 'POST')).toEqual([{ title: first.title, description: first.description }]);

    await user.click(save);
    expect(await screen.findByText('Already Exists')).toBeTruthy();
    expect(screen.getByText('This mission is already in your custom pool')).toBeTruthy();
    expect(bodyOf(fetchMock, 'POST')).toHaveLength(1);
  });

  it('shows "Already Exists" for a 409 from the server, and "Failed to add activity" for other failures', async () => {
    const user = userEvent.setup();
    let status = 409;
    mockFetch({
      'GET /api/activities': () => json([]),
      'POST /api/activities': () =>
        status === 409 ? text('This mission is already in your custom pool', 409, 'Conflict') : text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<MissionGeneratorCard />);
    await screen.findByText('No custom missions yet');
    await user.click(screen.getByRole('button', { name: 'Save mission to custom pool' }));
    expect(await screen.findByText('Already Exists')).toBeTruthy();
    expect(screen.getByText('This mission is already in your custom pool')).toBeTruthy();

    status = 500;
    await user.click(screen.getByRole('button', { name: 'Save mission to custom pool' }));
    expect(await screen.findByText('Failed to add activity')).toBeTruthy();
  });

  it('adds a new mission from the form: title trimmed, a blank description left out', async () => {
    const user = userEvent.setup();
    let custom: { id: string; title: string; description?: string }[] = [{ id: 'c0', title: third.title }];
    const fetchMock = mockFetch({
      'GET /api/activities': () => json(custom),
      'POST /api/activities': (init) => {
        const body = JSON.parse(String(init?.body)) as { title: string; description?: string };
        custom = [...custom, { id: `c${custom.length}`, ...body }];
        return json(custom.at(-1), 201);
      },
    });
    renderWithProviders(<MissionGeneratorCard />);
    await screen.findByText(third.title);
    await user.click(screen.getByRole('button', { name: 'Add New Mission' }));
    const form = screen.getByRole('form', { name: 'Add New Mission' });
    const add = within(form).getByRole('button', { name: 'Add Mission' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    await user.type(within(form).getByLabelText('Mission Title'), '  Learn three knots  ');
    await user.type(within(form).getByLabelText('Description (optional)'), '   ');
    await user.click(add);
    expect(await screen.findByText('Mission Added')).toBeTruthy();
    expect(await screen.findByText('Learn three knots')).toBeTruthy();
    expect(bodyOf(fetchMock, 'POST')).toEqual([{ title: 'Learn three knots' }]);
    expect((within(form).getByLabelText('Mission Title') as HTMLInputElement).value).toBe('');

    // A title already in the custom pool is refused before any request.
    await user.type(within(form).getByLabelText('Mission Title'), third.title);
    await user.click(add);
    expect(await screen.findByText('Already Exists')).toBeTruthy();
    expect(bodyOf(fetchMock, 'POST')).toHaveLength(1);
  });

  it('reports a failed new mission with "Failed to add activity"', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/activities': () => json([]), 'POST /api/activities': () => text('', 500, 'Internal Server Error') });
    renderWithProviders(<MissionGeneratorCard />);
    await user.click(await screen.findByRole('button', { name: 'Add New Mission' }));
    await user.type(screen.getByLabelText('Mission Title'), 'Knots');
    await user.click(screen.getByRole('button', { name: 'Add Mission' }));
    expect(await screen.findByText('Failed to add activity')).toBeTruthy();
  });

  it('removes a custom mission, and reports a failed removal', async () => {
    const user = userEvent.setup();
    let custom = [
      { id: 'c1', title: 'Learn three knots', description: 'Bowline first.' },
      { id: 'c2', title: 'Cold shower' },
    ];
    mockFetch({
      'GET /api/activities': () => json(custom),
      'DELETE /api/activities/c1': () => {
        custom = custom.filter((m) => m.id !== 'c1');
        return json({ id: 'c1' });
      },
      'DELETE /api/activities/c2': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<MissionGeneratorCard />);
    expect(await screen.findByText('Bowline first.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete Learn three knots' }));
    expect(await screen.findByText('Mission Removed')).toBeTruthy();
    expect(screen.queryByText('Learn three knots')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'UNDO' }));
    expect(screen.getByText('Learn three knots')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Delete Learn three knots' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    await waitFor(() => expect(screen.queryByText('Learn three knots')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete Cold shower' }));
    // A newer toast (here the next delete's) takes the UNDO toast's place: the first delete is sent then.
    await user.click(await screen.findByRole('button', { name: 'Dismiss notification' }));
    expect(await screen.findByText('Failed to delete mission')).toBeTruthy();
    expect(await screen.findByText('Cold shower')).toBeTruthy();
  });
});

describe('TARGETS card', () => {
  const target = (id: string, title: string, completed: boolean): Target => ({
    id,
    title,
    completed,
    createdAt: '2025-03-01T10:00:00.000Z',
    completedAt: completed ? '2025-03-02T10:00:00.000Z' : null,
  });

  it('scrolls at 16rem, reactivates a completed target, and reports failures', async () => {
    const user = userEvent.setup();
    let list = [target('t1', 'Joker', true)];
    mockFetch({
      'GET /api/targets': () => json(list),
      'PATCH /api/targets/t1': () => {
        list = [target('t1', 'Joker', false)];
        return json(list[0]);
      },
      'POST /api/targets': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<TargetsCard />);
    const label = await screen.findByText('Joker');
    expect(label.className).toContain('line-through');
    expect(label.closest('ul')!.className).toContain('max-h-64');
    expect(label.closest('ul')!.className).toContain('overflow-y-auto');

    await user.click(screen.getByRole('checkbox', { name: 'Joker' }));
    expect(await screen.findByText('Target Reactivated')).toBeTruthy();
    expect(screen.getByText('Target marked as active again')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Joker').className).not.toContain('line-through'));

    await user.type(screen.getByPlaceholderText('Identify new target...'), 'Bane');
    await user.click(screen.getByRole('button', { name: 'Add target' }));
    expect(await screen.findByText('Failed to add target')).toBeTruthy();
    expect((screen.getByPlaceholderText('Identify new target...') as HTMLInputElement).value).toBe('Bane');
  });

  it('reports a failed toggle with "Failed to update target"', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/targets': () => json([target('t1', 'Joker', false)]),
      'PATCH /api/targets/t1': () => text('', 500, 'Internal Server Error'),
    });
    renderWithProviders(<TargetsCard />);
    await user.click(await screen.findByRole('checkbox', { name: 'Joker' }));
    expect(await screen.findByText('Failed to update target')).toBeTruthy();
  });
});

// Issue 17, small things on the dashboard.
describe('dashboard: touch and wait', () => {
  const target = (id: string, title: string, completed: boolean): Target => ({
    id,
    title,
    completed,
    createdAt: '2025-03-01T10:00:00.000Z',
    completedAt: completed ? '2025-03-02T10:00:00.000Z' : null,
  });

  it('shows the tick in the complete-mission circle without hover (a touch screen has none)', async () => {
    emptyVault({ [SCHEDULE]: () => json([{ id: 's1', date: today, time: '08:00', title: 'Recon', completed: false }]) });
    renderWithProviders(<DashboardScreen />);
    const button = await screen.findByRole('button', { name: 'Complete Recon' });
    const tick = button.querySelector('svg')!;
    expect(tick).not.toBeNull();
    const classes = (tick.getAttribute('class') ?? '').split(/\s+/);
    expect(classes).not.toContain('opacity-0');
  });

  it('ticks a target at once, before the server answers', async () => {
    const user = userEvent.setup();
    const answer = deferred();
    let list = [target('t1', 'Joker', false)];
    mockFetch({
      'GET /api/targets': () => json(list),
      'PATCH /api/targets/t1': async () => {
        const response = await answer.handler();
        list = [target('t1', 'Joker', true)];
        return response;
      },
    });
    renderWithProviders(<TargetsCard />);
    const box = (await screen.findByRole('checkbox', { name: 'Joker' })) as HTMLInputElement;
    await user.click(box);
    // No answer yet, and the box is already ticked and the title struck through.
    expect((screen.getByRole('checkbox', { name: 'Joker' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Joker').className).toContain('line-through');
    answer.release(json(target('t1', 'Joker', true)));
    expect(await screen.findByText('Target Eliminated')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Joker' }) as HTMLInputElement).checked).toBe(true);
  });

  it('rolls the tick back with the failure toast when the server refuses', async () => {
    const user = userEvent.setup();
    const answer = deferred();
    mockFetch({
      'GET /api/targets': () => json([target('t1', 'Joker', false)]),
      'PATCH /api/targets/t1': answer.handler,
    });
    renderWithProviders(<TargetsCard />);
    await user.click(await screen.findByRole('checkbox', { name: 'Joker' }));
    expect((screen.getByRole('checkbox', { name: 'Joker' }) as HTMLInputElement).checked).toBe(true);
    answer.release(text('target: not found', 404, 'Not Found'));
    expect(await screen.findByText('Failed to update target')).toBeTruthy();
    expect(screen.getByText('target: not found')).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Joker' }) as HTMLInputElement).checked).toBe(false));
    expect(screen.getByText('Joker').className).not.toContain('line-through');
  });

  it("offers RETRY on a SIGNAL LOST card, which reads that card's data again", async () => {
    const user = userEvent.setup();
    let studiesUp = false;
    const fetchMock = emptyVault({
      'GET /api/studies': () => (studiesUp ? json([]) : text('Service unavailable', 503, 'Service Unavailable')),
    });
    renderWithProviders(<DashboardScreen />);
    const studies = card("TODAY'S STUDIES");
    expect(await within(studies).findByText('SIGNAL LOST')).toBeTruthy();
    const before = {
      targets: reads(fetchMock, '/api/targets'),
      schedule: reads(fetchMock, `/api/schedule/${today}`),
    };
    studiesUp = true;
    await user.click(within(studies).getByRole('button', { name: 'RETRY' }));
    expect(await within(studies).findByText('No studies added for today. Add your first study below!')).toBeTruthy();
    expect(within(studies).queryByText('SIGNAL LOST')).toBeNull();
    expect(reads(fetchMock, '/api/studies')).toBe(2);
    // Only that card's read was made again.
    expect(reads(fetchMock, '/api/targets')).toBe(before.targets);
    expect(reads(fetchMock, `/api/schedule/${today}`)).toBe(before.schedule);
  });
});
