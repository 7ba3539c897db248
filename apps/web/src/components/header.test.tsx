import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppHeader, formatClock } from './header';
import { navigation } from '../lib/navigation';
import { renderWithProviders } from '../test/utils';

afterEach(() => {
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

  it('formats the clock in 24-hour time', () => {
    expect(formatClock(new Date(2025, 0, 1, 21, 5, 9))).toBe('21:05:09');
    expect(formatClock(new Date(2025, 0, 1, 0, 0, 0))).toBe('00:00:00');
  });
});
