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
      'GET /api/logs': () => json([log('1', 'login_success', agent), log('2', 'password_login_failed'), log('3', 'logout'), log('4', 'self_destruct')]),
    });
    renderWithProviders(<LogsScreen />);
    const success = (await screen.findByText('LOGIN SUCCESS')).closest('li')!;
    expect(success.querySelector('svg')).not.toBeNull();
    expect(within(success).getByText('10.0.0.1')).toBeTruthy();
    // The agent shows shortened (issue 17: summarised, one line), the full string on demand.
    const ua = within(success).getByText('Chrome 120 on Linux');
    expect(ua.className).toContain('truncate');
    expect(within(success).getByText(agent).closest('details')).not.toBeNull();
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

// Issue 17: at 375 px the action label was drawn over the timestamp, and the
// user agent was cut to "Mozilla/5..." which tells the owner nothing.
describe('logs screen on a phone', () => {
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

  it('shows "Chrome 156 on Linux", with the full string on demand', async () => {
    mockFetch({ 'GET /api/logs': () => json([log('1', 'unauthorized', chrome)]) });
    renderWithProviders(<LogsScreen />);
    const item = (await screen.findByText('UNAUTHORIZED')).closest('li')!;
    const summary = within(item).getByText('Chrome 156 on Linux');
    const details = summary.closest('details')!;
    expect(details).not.toBeNull();
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.contains(summary)).toBe(true);
    expect(within(details).getByText(chrome)).toBeTruthy();
  });

  it('shows a user agent that says nothing more as it is, without a disclosure', async () => {
    mockFetch({ 'GET /api/logs': () => json([log('1', 'unauthorized', 'curl/8.5.0')]) });
    renderWithProviders(<LogsScreen />);
    const item = (await screen.findByText('UNAUTHORIZED')).closest('li')!;
    expect(within(item).getByText('curl/8.5.0')).toBeTruthy();
    expect(item.querySelector('details')).toBeNull();
  });

  it('lets the action, the address and the time wrap under each other instead of overlapping', async () => {
    mockFetch({ 'GET /api/logs': () => json([log('1', 'unauthorized', chrome)]) });
    renderWithProviders(<LogsScreen />);
    const action = await screen.findByText('UNAUTHORIZED');
    const item = action.closest('li')!;
    const time = item.querySelector('time')!;
    // The time is no fixed column beside the text (which a long label ran into):
    // it shares a wrapping row with the label and moves under it when the row is full.
    expect(time.parentElement).not.toBe(item);
    const row = time.parentElement!;
    expect(row.className.split(/\s+/)).toContain('flex-wrap');
    expect(row.contains(action)).toBe(true);
    // A word longer than the row breaks instead of running over its neighbours.
    expect(action.className).toContain('[overflow-wrap:anywhere]');
  });
});
