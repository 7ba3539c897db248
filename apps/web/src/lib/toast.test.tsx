import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Toaster } from '../components/toaster';
import { toast, TOAST_DURATION_MS, TOAST_LIMIT, TOAST_LONG_DURATION_MS } from './toast';

describe('toaster', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows at most one toast, the newest', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', description: 'Newest wins' });
    });
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Newest wins');
  });

  it('hides a toast after 5 s by default and after 8 s when asked', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Short' });
    });
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.getByText('Short')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Short')).toBeNull();

    act(() => {
      toast({ title: 'Long', duration: TOAST_LONG_DURATION_MS });
    });
    act(() => {
      vi.advanceTimersByTime(7999);
    });
    expect(screen.getByText('Long')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Long')).toBeNull();
  });

  it('uses the durations of spec section 9: 5 s, 8 s, one at a time', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_LONG_DURATION_MS).toBe(8000);
    expect(TOAST_LIMIT).toBe(1);
  });

  it('gives a replacing toast its own full duration', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Old' });
    });
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    act(() => {
      toast({ title: 'New' });
    });
    // The replaced toast's timer must not take the new one with it.
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.queryByText('Old')).toBeNull();
    expect(screen.getByText('New')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(3500);
    });
    expect(screen.queryByText('New')).toBeNull();
  });

  it('announces in a polite live region named Notifications, and can be dismissed', () => {
    render(<Toaster />);
    const region = screen.getByRole('status', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    expect(region.textContent).toBe('');

    act(() => {
      toast({ title: 'Error', description: 'Failed to update balance', variant: 'destructive' });
    });
    expect(region.textContent).toContain('Failed to update balance');
    expect(screen.getByText('Error').closest('[data-variant]')?.getAttribute('data-variant')).toBe('destructive');
    act(() => {
      screen.getByRole('button', { name: 'Dismiss notification' }).click();
    });
    expect(region.textContent).toBe('');
  });
});

// Issue 17: for 5-8 s a toast sat on SETTINGS and LOGOUT (desktop) and on the whole
// header with the menu toggle (phone). The region now sits at the bottom of the
// viewport, bottom-right from 640 px, clear of the header and of the settings
// panel that opens under it; it stays a polite live region.
describe('toaster placement', () => {
  it('sits at the bottom of the viewport, never at the top where the header controls are', () => {
    render(<Toaster />);
    const region = screen.getByRole('status', { name: 'Notifications' });
    const classes = region.className.split(/\s+/);
    expect(classes).toContain('fixed');
    expect(classes).toContain('bottom-0');
    expect(classes.some((c) => /(^|:)top-/.test(c))).toBe(false);
    // Above the phone's home indicator.
    expect(region.className).toContain('safe-area-inset-bottom');
    expect(region.getAttribute('aria-live')).toBe('polite');
  });

  it("shows a detail line (the server's reason) under the description", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Error', description: 'Failed to update balance', detail: 'amount: must not exceed the balance (1,000)', variant: 'destructive' });
    });
    const description = screen.getByText('Failed to update balance');
    const detail = screen.getByText('amount: must not exceed the balance (1,000)');
    expect(description.compareDocumentPosition(detail) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('amount: must not exceed the balance (1,000)');
  });
});
