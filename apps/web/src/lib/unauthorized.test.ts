import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { handleUnauthorized, isUnauthorizedError, toastFailure } from './unauthorized';
import { navigation } from './navigation';
import { Toaster } from '../components/toaster';
import { ApiError } from './api';
import { isVaultGone } from './farewell';
import { RETURN_PATH_KEY } from './return-path';
import { json, mockFetch } from '../test/utils';

/** The status the redirect asks first (a destroyed vault gets the farewell page instead). */
function statusAnswers(destroyed: boolean) {
  return mockFetch({ 'GET /api/system/status': () => json({ destroyed }) });
}

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

  it('shows the destructive toast and redirects to /api/login after 500 ms', async () => {
    statusAnswers(false);
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));

    let handled = false;
    act(() => {
      handled = handleUnauthorized(new Error('401: Unauthorized'));
    });

    expect(handled).toBe(true);
    expect(screen.getByText('Unauthorized')).toBeTruthy();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(screen.getByText('Unauthorized').closest('[data-variant]')?.getAttribute('data-variant')).toBe('destructive');

    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(go).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'));
  });

  it('remembers the screen, so that signing in again comes back to it', () => {
    vi.spyOn(navigation, 'go').mockImplementation(() => {});
    statusAnswers(false);
    window.history.replaceState(null, '', '/journal?x=1');
    try {
      handleUnauthorized(new Error('401: Unauthorized'));
      expect(sessionStorage.getItem(RETURN_PATH_KEY)).toBe('/journal?x=1');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('shows the farewell page instead when the vault was destroyed meanwhile (the endpoint would answer 410 text)', async () => {
    const fetchMock = statusAnswers(true);
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    handleUnauthorized(new Error('401: Unauthorized'));
    act(() => {
      vi.advanceTimersByTime(500);
    });
    await vi.waitFor(() => expect(isVaultGone()).toBe(true));
    expect(fetchMock).toHaveBeenCalledWith('/api/system/status', expect.objectContaining({ cache: 'no-store' }));
    expect(go).not.toHaveBeenCalled();
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

  it('redirects at once and shows no toast', async () => {
    statusAnswers(false);
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    render(createElement(Toaster));
    let handled = false;
    act(() => {
      handled = handleUnauthorized(new Error('401: Unauthorized'), { immediate: true });
    });
    expect(handled).toBe(true);
    await vi.waitFor(() => expect(go).toHaveBeenCalledExactlyOnceWith('/api/login'));
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

  it('gives way to the Unauthorized rule', async () => {
    vi.useFakeTimers();
    statusAnswers(false);
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
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'));
  });

  it('shows no "Failed to ..." for a 410: the vault is gone, and the page becomes the farewell page', () => {
    render(createElement(Toaster));
    const gone = new ApiError({ status: 410, statusText: 'Gone', body: 'This vault has been destroyed.', contentType: 'text/plain' });
    act(() => {
      toastFailure(gone, 'Failed to create target');
    });
    expect(screen.queryByText('Failed to create target')).toBeNull();
    expect(isVaultGone()).toBe(true);
  });
});
