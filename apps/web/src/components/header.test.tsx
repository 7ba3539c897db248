import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppHeader, formatClock } from './header';
import { navigation } from '../lib/navigation';
import { json, mockFetch, renderWithProviders } from '../test/utils';
import { setViewportWidth } from '../test/viewport';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AppHeader', () => {
  it('highlights the current navigation button', () => {
    renderWithProviders(<AppHeader />, { route: '/targets' });
    const labels = ['COMMAND CENTER', 'SCHEDULE', 'INTEL VAULT', 'TARGETS', 'BONAPARTE', 'LOGS'];
    for (const label of labels) {
      const link = screen.getByRole('link', { name: label });
      expect(link.getAttribute('aria-current')).toBe(label === 'TARGETS' ? 'page' : null);
    }
    expect(screen.getByRole('link', { name: 'SCHEDULE' }).getAttribute('href')).toBe('/weekly-schedule');
    expect(screen.getByRole('link', { name: 'INTEL VAULT' }).getAttribute('href')).toBe('/journal');
  });

  it('logs out only after confirmation', async () => {
    const user = userEvent.setup();
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithProviders(<AppHeader />);

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(confirm).toHaveBeenCalledWith('Terminate secure session?');
    expect(go).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(go).toHaveBeenCalledWith('/api/logout');
  });

  it('toggles the mobile navigation menu', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppHeader />);
    const toggle = screen.getByRole('button', { name: 'Open navigation menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close navigation menu' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('closes the mobile menu with Escape and returns focus to the toggle', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppHeader />);
    await user.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    await user.keyboard('{Escape}');
    const toggle = screen.getByRole('button', { name: 'Open navigation menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('offers the settings dropdown from 768 px and leaves it out of the DOM below', () => {
    setViewportWidth(768);
    const desktop = renderWithProviders(<AppHeader />);
    expect(screen.getByRole('button', { name: 'SETTINGS' })).toBeTruthy();
    desktop.unmount();

    setViewportWidth(767);
    renderWithProviders(<AppHeader />);
    expect(screen.queryByRole('button', { name: 'SETTINGS' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open navigation menu' })).toBeTruthy();
  });

  it('shows SECURE CONNECTION and a clock that ticks every second', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2025, 0, 1, 23, 59, 58));
    renderWithProviders(<AppHeader />);
    expect(screen.getByText('SECURE CONNECTION')).toBeTruthy();
    const clock = screen.getByTestId('header-clock');
    expect(clock.textContent).toBe('23:59:58');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(clock.textContent).toBe('23:59:59');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(clock.textContent).toBe('00:00:00');
  });

  it('shows the PUBLIC ACCESS badge only while global access is on', async () => {
    mockFetch({ 'GET /api/user': () => json({ name: 'Bruce', username: 'bruce', globalAccess: true }) });
    const on = renderWithProviders(<AppHeader />);
    expect(await screen.findByText('PUBLIC ACCESS')).toBeTruthy();
    on.unmount();

    mockFetch({ 'GET /api/user': () => json({ name: 'Bruce', username: 'bruce' }) });
    renderWithProviders(<AppHeader />);
    expect(await screen.findByText("Bruce's VAULT")).toBeTruthy();
    expect(screen.queryByText('PUBLIC ACCESS')).toBeNull();
  });

  it('formats the clock in 24-hour time', () => {
    expect(formatClock(new Date(2025, 0, 1, 21, 5, 9))).toBe('21:05:09');
    expect(formatClock(new Date(2025, 0, 1, 0, 0, 0))).toBe('00:00:00');
  });
});

// Issue 17: under global access a stranger saw SETTINGS and LOGOUT, and DEACTIVATE
// told them "You are logged out". A visitor (GET /api/user answers signedIn: false)
// is shown what a visitor can use, and everyone sees that the vault is public.
describe('AppHeader under global access', () => {
  const BANNER = 'GLOBAL ACCESS ACTIVE: this vault is open to anyone who reaches it';
  const visitor = { name: 'Bruce', username: 'bruce', globalAccess: true, signedIn: false };
  const owner = { name: 'Bruce', username: 'bruce', globalAccess: true, signedIn: true };

  it('remembers the screen a visitor signs in from, to come back to it', async () => {
    const user = userEvent.setup();
    mockFetch({ 'GET /api/user': () => json(visitor) });
    window.history.replaceState(null, '', '/targets');
    try {
      renderWithProviders(<AppHeader />, { route: '/targets' });
      await user.click(await screen.findByRole('button', { name: 'SIGN IN' }));
      expect(sessionStorage.getItem('vault.returnTo')).toBe('/targets');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it.each([1280, 375])('shows a visitor SIGN IN instead of SETTINGS and LOGOUT at %i px', async (width) => {
    setViewportWidth(width);
    mockFetch({ 'GET /api/user': () => json(visitor) });
    renderWithProviders(<AppHeader />);
    expect(await screen.findByRole('button', { name: 'SIGN IN' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'SETTINGS' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.getByText(BANNER)).toBeTruthy();
    // The navigation (and on a phone its menu toggle) stays: every screen is open to a visitor.
    expect(screen.getByRole('link', { name: 'TARGETS' })).toBeTruthy();
    if (width < 768) expect(screen.getByRole('button', { name: 'Open navigation menu' })).toBeTruthy();
  });

  it('shows the owner the same banner, with SETTINGS and LOGOUT', async () => {
    mockFetch({ 'GET /api/user': () => json(owner) });
    renderWithProviders(<AppHeader />);
    expect(await screen.findByText(BANNER)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'SETTINGS' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'SIGN IN' })).toBeNull();
  });

  it('shows no banner while global access is off', async () => {
    mockFetch({ 'GET /api/user': () => json({ ...owner, globalAccess: false }) });
    renderWithProviders(<AppHeader />);
    expect(await screen.findByText("Bruce's VAULT")).toBeTruthy();
    expect(screen.queryByText(BANNER)).toBeNull();
    expect(screen.queryByRole('button', { name: 'SIGN IN' })).toBeNull();
  });
});
