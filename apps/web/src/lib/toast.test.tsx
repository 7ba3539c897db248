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
