// The logs screen (spec 2.13): formatting and colour of each access attempt.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import LogsScreen from './logs';
import { actionTone } from '../lib/logs';
import { json, mockFetch, renderWithProviders } from '../test/utils';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const log = (id: string, action: string, userAgent?: string) => ({
  id,
  ipAddress: `10.0.0.${id}`,
  userAgent,
  action,
  success: !action.includes('failed'),
  createdAt: new Date(2025, 2, 1, 21, 7, 3).toISOString(),
});

describe('logs screen', () => {
  it('shows icon, IP, truncated user agent, action words and a 24-hour time; coloured by action', async () => {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
    mockFetch({
      'GET /api/logs': () =>
        json([
          log('1', 'login_success', agent),
          log('2', 'password_login_failed'),
          log('3', 'logout'),
          log('4', 'self_destruct'),
        ]),
    });
    renderWithProviders(<LogsScreen />);
    const success = (await screen.findByText('LOGIN SUCCESS')).closest('li')!;
    expect(success.querySelector('svg')).not.toBeNull();
    expect(within(success).getByText('10.0.0.1')).toBeTruthy();
    const ua = within(success).getByText(agent);
    expect(ua.className).toContain('truncate');
    expect(within(success).getByText('Mar 1, 2025, 21:07:03')).toBeTruthy();
    expect(success.className).toContain('text-hero-green');

    const failed = screen.getByText('PASSWORD LOGIN FAILED').closest('li')!;
    expect(failed.className).toContain('text-hero-red');
    expect(failed.textContent).not.toContain('undefined');
    expect(screen.getByText('LOGOUT').closest('li')!.className).toContain('text-hero-blue');
    expect(screen.getByText('SELF DESTRUCT').closest('li')!.className).toContain('text-hero-cyan');
  });

  it('colours only actions containing "failed" red', () => {
    expect(actionTone('LOGIN_FAILED')).toBe('red');
    expect(actionTone('failure_report')).toBe('cyan');
    expect(actionTone('login')).toBe('cyan');
  });
});
