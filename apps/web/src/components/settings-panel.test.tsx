import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppHeader } from './header';
import { SettingsMenu } from './settings-panel';
import { navigation } from '../lib/navigation';
import { isVaultGone } from '../lib/farewell';
import { GLOBAL_ACCESS_CONFIRM, SELF_DESTRUCT_FINAL_WARNING } from '../lib/settings';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const FINAL_WARNING =
  'FINAL WARNING: This will permanently erase ALL data including journal entries, targets, schedules, and photos. This action cannot be undone. Proceed with Perfect Cell?';

function deferred() {
  let resolve: (response: Response) => void = () => {};
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'SETTINGS' }));
  return screen.getByRole('dialog', { name: 'VAULT SETTINGS' });
}

function settingsCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/settings/')).map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
}

let go: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('VAULT SETTINGS panel', () => {
  it('shows its two sections with the spec texts', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    expect(within(panel).getByRole('heading', { name: 'VAULT SETTINGS' })).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'TO THE MOON' })).toBeTruthy();
    expect(within(panel).getByText('Makes all personal data publicly accessible')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'ACTIVATE' })).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'PERFECT CELL' })).toBeTruthy();
    expect(within(panel).getByText('DANGER: Irreversible data deletion')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'INITIATE' })).toBeTruthy();
    expect(within(panel).queryByText('CONFIRMATION: Click again to execute.')).toBeNull();
  });

  it('keeps the exact confirmation texts', () => {
    expect(SELF_DESTRUCT_FINAL_WARNING).toBe(FINAL_WARNING);
    expect(GLOBAL_ACCESS_CONFIRM).toBe('Enable global access? This will allow anyone to access the entire site without authentication.');
  });
});

describe('PERFECT CELL', () => {
  it('arms on the first click and disarms when a click outside closes the panel', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <p>Outside the panel</p>
        <SettingsMenu globalAccess={false} />
      </>,
    );
    let panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    expect(within(panel).getByRole('alert').textContent).toBe('CONFIRMATION: Click again to execute.');
    expect(within(panel).getByRole('button', { name: 'CONFIRM' })).toBeTruthy();

    await user.click(screen.getByText('Outside the panel'));
    expect(screen.queryByRole('dialog', { name: 'VAULT SETTINGS' })).toBeNull();

    panel = await openPanel(user);
    expect(within(panel).getByRole('button', { name: 'INITIATE' })).toBeTruthy();
    expect(within(panel).queryByText('CONFIRMATION: Click again to execute.')).toBeNull();
  });

  it('offers EXPORT FIRST once armed: it disarms and opens EXPORT VAULT with the password field focused', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);
    const exportSection = within(panel).getByText('EXPORT VAULT', { selector: 'summary' }).closest('details')!;
    expect(exportSection.open).toBe(false);
    expect(within(panel).queryByRole('button', { name: 'EXPORT FIRST' })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    await user.click(within(panel).getByRole('button', { name: 'EXPORT FIRST' }));
    expect(exportSection.open).toBe(true);
    expect(document.activeElement).toBe(within(panel).getByLabelText('Owner password'));
    expect(within(panel).getByRole('button', { name: 'INITIATE' })).toBeTruthy();
    expect(within(panel).queryByText('CONFIRMATION: Click again to execute.')).toBeNull();
  });

  it('disarms when Escape closes the panel', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    let panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'VAULT SETTINGS' })).toBeNull();
    panel = await openPanel(user);
    expect(within(panel).getByRole('button', { name: 'INITIATE' })).toBeTruthy();
  });

  it('asks the final warning on CONFIRM; dismissing it calls nothing and disarms', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    expect(confirm).not.toHaveBeenCalled();
    await user.click(within(panel).getByRole('button', { name: 'CONFIRM' }));

    expect(confirm).toHaveBeenCalledExactlyOnceWith(FINAL_WARNING);
    expect(settingsCalls(fetchMock)).toEqual([]);
    expect(within(panel).getByRole('button', { name: 'INITIATE' })).toBeTruthy();
  });

  it('erases: ERASING... while pending, then the farewell at once under the 8 s toast, and / after 3 s without leaving the page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const answer = deferred();
    const fetchMock = mockFetch({ 'POST /api/settings/self-destruct': () => answer.promise });
    const replaceUrl = vi.spyOn(navigation, 'replaceUrl').mockImplementation(() => {});
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    await user.click(within(panel).getByRole('button', { name: 'CONFIRM' }));
    const erasing = await within(panel).findByRole('button', { name: 'ERASING...' });
    expect((erasing as HTMLButtonElement).disabled).toBe(true);
    expect(settingsCalls(fetchMock)).toEqual(['POST /api/settings/self-destruct']);
    expect(isVaultGone()).toBe(false);

    await act(async () => {
      answer.resolve(new Response(null, { status: 204 }));
    });
    expect(await screen.findByText('Perfect Cell Initiated')).toBeTruthy();
    expect(screen.getByText('All data has been permanently erased. Vault is now empty.')).toBeTruthy();
    // The page is the farewell page from the confirmation on (App shows it for a gone vault).
    expect(isVaultGone()).toBe(true);

    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(replaceUrl).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    // The login route, in place: never the login endpoint, whose 410 text would become the page.
    expect(replaceUrl).toHaveBeenCalledExactlyOnceWith('/');
    expect(go).not.toHaveBeenCalled();

    // The toast stays for 8 s in all.
    act(() => {
      vi.advanceTimersByTime(4700);
    });
    expect(screen.getByText('Perfect Cell Initiated')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(screen.queryByText('Perfect Cell Initiated')).toBeNull();
  });

  it('reports a refused call (the server has no such route yet) and disarms', async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/settings/self-destruct': () => text('Not found', 404, 'Not Found') });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    await user.click(within(panel).getByRole('button', { name: 'CONFIRM' }));

    expect(await screen.findByText('Self-destruct sequence failed')).toBeTruthy();
    expect(screen.getByText('Error').closest('[data-variant]')?.getAttribute('data-variant')).toBe('destructive');
    expect(await within(panel).findByRole('button', { name: 'INITIATE' })).toBeTruthy();
    expect(go).not.toHaveBeenCalled();
  });

  it('applies the Unauthorized rule when the session is gone', async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/settings/self-destruct': () => text('Unauthorized', 401, 'Unauthorized') });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'INITIATE' }));
    await user.click(within(panel).getByRole('button', { name: 'CONFIRM' }));

    expect(await screen.findByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(screen.queryByText('Self-destruct sequence failed')).toBeNull();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'));
  });
});

describe('TO THE MOON', () => {
  it('asks first; a dismissed prompt calls nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'ACTIVATE' }));
    expect(confirm).toHaveBeenCalledExactlyOnceWith('Enable global access? This will allow anyone to access the entire site without authentication.');
    expect(settingsCalls(fetchMock)).toEqual([]);
  });

  it('activates: LAUNCHING... while pending, then the toast, and the header shows PUBLIC ACCESS', async () => {
    const user = userEvent.setup();
    const answer = deferred();
    let globalAccess = false;
    const fetchMock = mockFetch({
      'POST /api/settings/global-access': async () => {
        const response = await answer.promise;
        globalAccess = true;
        return response;
      },
      'GET /api/user': () => json({ name: 'Bruce', username: 'bruce', globalAccess }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<AppHeader />);
    expect(await screen.findByText("Bruce's VAULT")).toBeTruthy();
    expect(screen.queryByText('PUBLIC ACCESS')).toBeNull();
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'ACTIVATE' }));
    const launching = await within(panel).findByRole('button', { name: 'LAUNCHING...' });
    expect((launching as HTMLButtonElement).disabled).toBe(true);

    await act(async () => {
      answer.resolve(new Response(null, { status: 204 }));
    });
    expect(await screen.findByText('To The Moon Activated')).toBeTruthy();
    expect(await screen.findByText('PUBLIC ACCESS')).toBeTruthy();
    expect(await within(panel).findByRole('button', { name: 'DEACTIVATE' })).toBeTruthy();
    expect(settingsCalls(fetchMock)).toEqual(['POST /api/settings/global-access']);
  });

  it('shows the failure toast when the server refuses (today: 404, no route yet)', async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/settings/global-access': () => text('Not found', 404, 'Not Found') });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    const panel = await openPanel(user);

    await user.click(within(panel).getByRole('button', { name: 'ACTIVATE' }));
    expect(await screen.findByText('Failed to activate global access')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'ACTIVATE' })).toBeTruthy();
  });

  it('while on, shows PUBLIC and turns it off with DEACTIVATE', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({ 'DELETE /api/settings/global-access': () => new Response(null, { status: 204 }) });
    const confirm = vi.spyOn(window, 'confirm');
    renderWithProviders(<SettingsMenu globalAccess />);
    const panel = await openPanel(user);

    expect(within(panel).getByText('PUBLIC')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'ACTIVATE' })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'DEACTIVATE' }));

    expect(await screen.findByText('Global Access Disabled')).toBeTruthy();
    expect(screen.getByText('The vault requires sign-in again.')).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
    expect(settingsCalls(fetchMock)).toEqual(['DELETE /api/settings/global-access']);
  });

  it('reports a failed deactivation', async () => {
    const user = userEvent.setup();
    mockFetch({ 'DELETE /api/settings/global-access': () => text('', 500, 'Internal Server Error') });
    renderWithProviders(<SettingsMenu globalAccess />);
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'DEACTIVATE' }));
    expect(await screen.findByText('Failed to deactivate global access')).toBeTruthy();
  });
});
