import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { handleUnauthorized, isUnauthorizedError, toastFailure } from './unauthorized';
import { navigation } from './navigation';
import { Toaster } from '../components/toaster';

describe('isUnauthorizedError', () => {
  it('matches a 401 message containing Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
  });

  it('ignores other failures', () => {
    expect(isUnauthorizedError(new Error('401: Invalid credentials'))).toBe(false);
    expect(isUnauthorizedError(new Error('500: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
  });
});

describe('handleUnauthorized', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the destructive toast and redirects to /api/login after 500 ms', () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));

    let handled = false;
    act(() => {
      handled = handleUnauthorized(new Error('401: Unauthorized'));
    });

    expect(handled).toBe(true);
    expect(screen.getByText('Unauthorized')).toBeTruthy();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(screen.getByText('Unauthorized').closest('[data-variant]')?.getAttribute('data-variant')).toBe(
      'destructive',
    );

    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(go).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(go).toHaveBeenCalledWith('/api/login');
  });

  it('does nothing for other errors', () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    expect(handleUnauthorized(new Error('500: Internal Server Error'))).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(go).not.toHaveBeenCalled();
  });
});

describe('the balance screen variant', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('redirects at once and shows no toast', () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));
    let handled = false;
    act(() => {
      handled = handleUnauthorized(new Error('401: Unauthorized'), { immediate: true });
    });
    expect(handled).toBe(true);
    expect(go).toHaveBeenCalledExactlyOnceWith('/api/login');
    expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toBe('');
  });
});

describe('toastFailure', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the destructive "Error" toast with the action text', () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));
    act(() => {
      toastFailure(new Error('404: Not found'), 'Failed to activate global access');
    });
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByText('Failed to activate global access')).toBeTruthy();
    expect(go).not.toHaveBeenCalled();
  });

  it('gives way to the Unauthorized rule', () => {
    vi.useFakeTimers();
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));
    act(() => {
      toastFailure(new Error('401: Unauthorized'), 'Failed to add study');
    });
    expect(screen.queryByText('Failed to add study')).toBeNull();
    expect(screen.getByText('Unauthorized')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(go).toHaveBeenCalledWith('/api/login');
  });
});
