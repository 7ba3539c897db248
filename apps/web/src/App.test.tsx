import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from './App';
import { navigation } from './lib/navigation';
import { json, mockFetch, renderWithProviders, text } from './test/utils';

const owner = { name: 'Bruce', username: 'bruce' };
const unauthorized = () => text('Unauthorized', 401, 'Unauthorized');

/** What the app asks at every start, as a live vault with nobody signed in answers it; `changed` replaces or adds answers. */
function vaultAnswers(changed: Parameters<typeof mockFetch>[0] = {}): Parameters<typeof mockFetch>[0] {
  return {
    'GET /api/system/status': () => json({ destroyed: false }),
    'GET /api/system/owner': () => json(owner),
    'GET /api/user': unauthorized,
    ...changed,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes when signed out', () => {
  it('shows the login screen on /', async () => {
    mockFetch(vaultAnswers());
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByRole('heading', { name: "Bruce's VAULT" })).toBeTruthy();
    expect(screen.getByText('Personal Access Portal')).toBeTruthy();
    expect(screen.getByText('MAXIMUM SECURITY ACTIVE')).toBeTruthy();
    expect(screen.getByRole('button', { name: /SECURE ACCESS/ })).toBeTruthy();
    expect(screen.getByPlaceholderText('Enter password')).toBeTruthy();
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('bruce');
    expect(screen.queryByText('404 Page Not Found')).toBeNull();
  });

  it('shows 404 on any other path', async () => {
    mockFetch(vaultAnswers());
    renderWithProviders(<App />, { route: '/journal', withToaster: false });

    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
    expect(screen.queryByText('Personal Access Portal')).toBeNull();
  });

  it('while authentication loads, shows INITIALIZING VAULT... on / and 404 on any other path', async () => {
    const routes = {
      'GET /api/system/status': () => json({ destroyed: false }),
      'GET /api/system/owner': () => json(owner),
      'GET /api/user': () => new Promise<Response>(() => {}),
    };
    mockFetch(routes);
    const landing = renderWithProviders(<App />, { route: '/', withToaster: false });
    expect(await screen.findByText('INITIALIZING VAULT...')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('INITIALIZING VAULT...')).toBeTruthy();
    expect(screen.queryByText('Personal Access Portal')).toBeNull();
    landing.unmount();

    mockFetch(routes);
    renderWithProviders(<App />, { route: '/targets', withToaster: false });
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
  });

  it('shows INITIALIZING VAULT... while the status is unknown', async () => {
    mockFetch({ 'GET /api/system/status': () => new Promise<Response>(() => {}) });
    renderWithProviders(<App />, { route: '/', withToaster: false });
    expect(screen.getByText('INITIALIZING VAULT...')).toBeTruthy();
  });
});

describe('system status', () => {
  it('shows only the farewell page on every route when destroyed', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/system/status': () => json({ destroyed: true }),
        'GET /api/user': () => json(owner),
      }),
    );
    renderWithProviders(<App />, { route: '/targets', withToaster: false });

    expect(await screen.findByText('Here lies the mind of Bruce')).toBeTruthy();
    expect(screen.getByText('The self-destruct routine has been executed.')).toBeTruthy();
    expect(screen.getByText('All data has been permanently erased.')).toBeTruthy();
    expect(screen.queryByText('TARGETS')).toBeNull();
    expect(screen.queryByText('SECURE CONNECTION')).toBeNull();
  });

  it('asks for the status, the owner and the user at once, not one after another', async () => {
    const fetchMock = mockFetch({
      'GET /api/system/status': () => new Promise<Response>(() => {}),
      'GET /api/system/owner': () => json(owner),
      'GET /api/user': () => json(owner),
    });
    renderWithProviders(<App />, { route: '/', withToaster: false });

    const asked = () => fetchMock.mock.calls.map(([url]) => url);
    await waitFor(() => expect(asked()).toEqual(expect.arrayContaining(['/api/system/status', '/api/system/owner', '/api/user'])));
    expect(screen.getByText('INITIALIZING VAULT...')).toBeTruthy();
  });

  it('treats a failed status check as not destroyed', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/system/status': () => text('', 503, 'Service Unavailable'),
      }),
    );
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByText('Personal Access Portal')).toBeTruthy();
    expect(screen.queryByText(/Here lies the mind/)).toBeNull();
  });

  it('degrades to a plain VAULT title when the owner’s name cannot be read', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/system/owner': () => Promise.reject(new TypeError('Failed to fetch')),
      }),
    );
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByRole('heading', { name: 'VAULT' })).toBeTruthy();
    expect(screen.getByText('Personal Access Portal')).toBeTruthy();
  });

  it('says VAULT UNREACHABLE when the vault does not answer at all, and RETRY asks again', async () => {
    const unreachable = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', unreachable);
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByRole('heading', { name: 'VAULT UNREACHABLE' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The vault did not answer');
    expect(screen.queryByText('Personal Access Portal')).toBeNull();

    // Still no answer: the same screen, after the button said it was trying.
    const user = userEvent.setup();
    const calls = unreachable.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'RETRY' }));
    await waitFor(() => expect(unreachable.mock.calls.length).toBeGreaterThan(calls));
    expect(await screen.findByRole('button', { name: 'RETRY' })).toBeTruthy();

    // The vault answers again: the login screen.
    mockFetch(vaultAnswers());
    await user.click(screen.getByRole('button', { name: 'RETRY' }));
    expect(await screen.findByRole('heading', { name: "Bruce's VAULT" })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'VAULT UNREACHABLE' })).toBeNull();
  });

  it('does not call an answer with an error status unreachable (the vault answered)', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/system/status': () => text('Bad Gateway', 502, 'Bad Gateway'),
      }),
    );
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByText('Personal Access Portal')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'VAULT UNREACHABLE' })).toBeNull();
  });
});

describe('routes when signed in', () => {
  it('shows the command center with the header on /', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/user': () => json(owner),
      }),
    );
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByRole('heading', { name: 'COMMAND CENTER' }, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('SECURE CONNECTION')).toBeTruthy();
    const current = screen.getByRole('link', { name: 'COMMAND CENTER' });
    expect(current.getAttribute('aria-current')).toBe('page');
  });

  it.each([
    ['/', 'COMMAND CENTER', 'COMMAND CENTER'],
    ['/weekly-schedule', 'WEEKLY SCHEDULE TEMPLATES', 'SCHEDULE'],
    ['/journal', 'Intelligence Vault', 'INTEL VAULT'],
    ['/targets', 'Target Elimination System', 'TARGETS'],
    ['/bonaparte', 'BONAPARTE', 'BONAPARTE'],
    ['/logs', 'LOGS', 'LOGS'],
    ['/studies-archive', 'STUDIES ARCHIVE', null],
  ])('shows %s with its title and highlights its navigation button', async (route, title, navLabel) => {
    // Every domain read answers an empty list; the status, owner and user as usual.
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/system/status') return json({ destroyed: false });
      if (url === '/api/system/owner' || url === '/api/user') return json(owner);
      if (url === '/api/bonaparte/balance') return json({ amount: 5 });
      return json([]);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<App />, { route, withToaster: false });

    expect(await screen.findByRole('heading', { level: 1, name: title }, { timeout: 3000 })).toBeTruthy();
    const current = screen.queryAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(navLabel ? [navLabel] : []);
  });

  it('shows 404 for an unknown path', async () => {
    mockFetch(
      vaultAnswers({
        'GET /api/user': () => json(owner),
      }),
    );
    renderWithProviders(<App />, { route: '/nowhere', withToaster: false });
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
  });
});

describe('a visitor under global access', () => {
  const visitor = { ...owner, globalAccess: true, signedIn: false };

  it('sees the vault, and SIGN IN opens the login form with a way back', async () => {
    const user = (await import('@testing-library/user-event')).default.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        if (url === '/api/system/status') return json({ destroyed: false });
        if (url === '/api/system/owner') return json(owner);
        if (url === '/api/user') return json(visitor);
        return json([]);
      }),
    );
    renderWithProviders(<App />, { route: '/', withToaster: false });

    expect(await screen.findByRole('heading', { level: 1, name: 'COMMAND CENTER' }, { timeout: 3000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));
    expect(await screen.findByText('Personal Access Portal')).toBeTruthy();
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('bruce');
    expect(screen.queryByRole('heading', { name: 'COMMAND CENTER' })).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Back to the vault' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'COMMAND CENTER' })).toBeTruthy();
  });
});

describe('a vault destroyed while the page is open', () => {
  const gone = () => text('This vault has been destroyed.', 410, 'Gone');

  it('switches a second tab to the farewell page at its next call (a 410), with no failure toast and no old data', async () => {
    const user = userEvent.setup();
    let destroyed = false;
    mockFetch({
      'GET /api/system/status': () => json({ destroyed }),
      'GET /api/system/owner': () => json(owner),
      'GET /api/user': () => (destroyed ? gone() : json(owner)),
      'GET /api/targets': () =>
        destroyed ? gone() : json([{ id: 't1', title: 'Old secret target', completed: false, createdAt: '2025-03-01T10:00:00Z', completedAt: null }]),
      'POST /api/targets': () => gone(),
    });
    renderWithProviders(<App />, { route: '/targets' });
    expect(await screen.findByText('Old secret target', undefined, { timeout: 3000 })).toBeTruthy();
    localStorage.setItem('vault.draft.journal.new', JSON.stringify({ title: 'x', content: 'private words' }));

    // Elsewhere, PERFECT CELL; here, the owner marks a target.
    destroyed = true;
    await user.type(screen.getByLabelText('Target Objective'), 'New target');
    await user.click(screen.getByRole('button', { name: /Mark Target/ }));

    expect(await screen.findByText('Here lies the mind of Bruce')).toBeTruthy();
    expect(screen.queryByText('Old secret target')).toBeNull();
    expect(screen.queryByText('Failed to create target')).toBeNull();
    // What the vault left on this device goes too: no draft survives it.
    expect(Object.keys(localStorage).filter((key) => key.startsWith('vault.draft.'))).toEqual([]);
  });

  it('shows the farewell page instead of the logout endpoint (whose 410 text would become the page)', async () => {
    const user = userEvent.setup();
    let destroyed = false;
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    mockFetch(
      vaultAnswers({
        'GET /api/system/status': () => json({ destroyed }),
        'GET /api/user': () => json(owner),
        'GET /api/bonaparte/balance': () => json({ amount: 5 }),
      }),
    );
    renderWithProviders(<App />, { route: '/bonaparte' });
    await screen.findByRole('heading', { level: 1, name: 'BONAPARTE' }, { timeout: 3000 });
    destroyed = true;
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Here lies the mind of Bruce')).toBeTruthy();
    expect(go).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
