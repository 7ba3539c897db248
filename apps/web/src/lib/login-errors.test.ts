import { describe, expect, it } from 'vitest';
import { loginErrorToast } from './login-errors';

describe('loginErrorToast', () => {
  it('maps a locked account', () => {
    expect(loginErrorToast('423: Account locked. Try again in 15 minutes.')).toEqual({
      title: 'Account Locked',
      description: 'Account temporarily locked for security. Try again later.',
    });
  });

  it('maps the rate limit', () => {
    expect(loginErrorToast('429: Rate limit exceeded. Try again later.')).toEqual({
      title: 'Too Many Attempts',
      description: 'Please wait 15 minutes before trying again.',
    });
  });

  it('maps invalid credentials', () => {
    expect(loginErrorToast('401: Invalid credentials')).toEqual({
      title: 'Access Denied',
      description: 'Invalid credentials. Access restricted to authorized user only.',
    });
  });

  it('maps anything else to a generic failure', () => {
    for (const message of ['400: username: must not be blank', '500: Internal Server Error', 'Failed to fetch']) {
      expect(loginErrorToast(message)).toEqual({
        title: 'Authentication Failed',
        description: 'Invalid username or password',
      });
    }
  });

  it('checks in the order of the spec table: locked, Rate limit, Invalid credentials', () => {
    expect(loginErrorToast('429: Rate limit exceeded; account locked').title).toBe('Account Locked');
    expect(loginErrorToast('401: Invalid credentials. Rate limit close').title).toBe('Too Many Attempts');
  });

  it('matches the words as the spec writes them', () => {
    expect(loginErrorToast('429: rate limit exceeded').title).toBe('Authentication Failed');
    expect(loginErrorToast('401: invalid credentials').title).toBe('Authentication Failed');
  });
});
