import { describe, expect, it } from 'vitest';
import { actionTone, formatAction } from './logs';

describe('access log entries of the second factor', () => {
  it('are green when a check passed, red when it failed, yellow when the ways in change or are spent', () => {
    expect(['second_factor_succeeded', 'reauthenticated'].map(actionTone)).toEqual(['green', 'green']);
    expect(['second_factor_failed', 'reauthentication_failed'].map(actionTone)).toEqual(['red', 'red']);
    expect(['password_accepted', 'recovery_code_used', 'second_factor_added', 'second_factor_removed', 'reauthentication_required'].map(actionTone)).toEqual(
      Array(5).fill('yellow'),
    );
    // The spec's colours stay as they were.
    expect(['login_success', 'failed_login', 'logout', 'account_locked'].map(actionTone)).toEqual(['green', 'red', 'blue', 'cyan']);
  });

  it('read as their own names', () => {
    expect(formatAction('recovery_code_used')).toBe('RECOVERY CODE USED');
    expect(formatAction('second_factor_failed')).toBe('SECOND FACTOR FAILED');
  });
});
