import { describe, expect, it } from 'vitest';
import { actionTone, formatAction, formatLogTime } from './logs';

describe('access log entries', () => {
  it('show the action in uppercase with underscores as spaces', () => {
    expect(formatAction('login_success')).toBe('LOGIN SUCCESS');
    expect(formatAction('logout')).toBe('LOGOUT');
  });

  it('are coloured by action', () => {
    expect(actionTone('login_failed')).toBe('red');
    expect(actionTone('failed')).toBe('red');
    expect(actionTone('login_success')).toBe('green');
    expect(actionTone('logout')).toBe('blue');
    expect(actionTone('account_locked')).toBe('cyan');
  });

  it('show a 24-hour timestamp to the second', () => {
    const local = new Date(2025, 2, 1, 14, 5, 9).toISOString();
    expect(formatLogTime(local)).toBe('Mar 1, 2025, 14:05:09');
    expect(formatLogTime(new Date(2025, 2, 1, 0, 0, 1).toISOString())).toBe('Mar 1, 2025, 00:00:01');
  });
});
