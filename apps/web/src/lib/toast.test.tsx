import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Toaster } from '../components/toaster';
import { toast, TOAST_LONG_DURATION_MS } from './toast';

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
});
