import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { Toaster } from '../components/toaster';
import { createQueryClient } from './query-client';
import { flushPendingDeletes, scheduleDelete, UNDO_WINDOW_MS, type DeferredDelete } from './deferred-delete';
import { markVaultGone } from './farewell';
import { leaveFor } from './leave';
import { navigation } from './navigation';
import { toast } from './toast';
import { json, mockFetch } from '../test/utils';

const STUDY: DeferredDelete = {
  kind: 'study',
  url: (id) => `/api/studies/${id}`,
  refresh: ['/api/studies'],
  toast: { title: 'Study Deleted' },
  failure: 'Failed to delete study',
};

function deletesOf(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url, init]) => ({ url, keepalive: init?.keepalive === true }));
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a delete with UNDO', () => {
  it('is sent when the undo window ends, not before', async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch({ 'DELETE /api/studies/s1': () => json({ id: 's1' }) });
    render(createElement(Toaster));
    act(() => scheduleDelete(createQueryClient(), STUDY, 's1'));
    expect(screen.getByRole('button', { name: 'UNDO' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS - 1));
    expect(deletesOf(fetchMock)).toEqual([]);
    await act(async () => vi.advanceTimersByTime(1));
    expect(deletesOf(fetchMock)).toEqual([{ url: '/api/studies/s1', keepalive: false }]);
  });

  it('is sent at once when a newer toast takes its place (its UNDO is no longer offered)', async () => {
    const fetchMock = mockFetch({ 'DELETE /api/studies/s1': () => json({ id: 's1' }) });
    render(createElement(Toaster));
    act(() => scheduleDelete(createQueryClient(), STUDY, 's1'));
    await act(async () => {
      toast({ title: 'Study Added' });
    });
    expect(deletesOf(fetchMock)).toEqual([{ url: '/api/studies/s1', keepalive: false }]);
  });

  it('is sent with keepalive when the page goes first (pagehide), and only once', async () => {
    const fetchMock = mockFetch({ 'DELETE /api/studies/s1': () => json({ id: 's1' }) });
    render(createElement(Toaster));
    act(() => scheduleDelete(createQueryClient(), STUDY, 's1'));
    window.dispatchEvent(new Event('pagehide'));
    flushPendingDeletes();
    expect(deletesOf(fetchMock)).toEqual([{ url: '/api/studies/s1', keepalive: true }]);
  });

  it('is never sent once the vault is gone', async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch({});
    render(createElement(Toaster));
    act(() => scheduleDelete(createQueryClient(), STUDY, 's1'));
    act(() => markVaultGone());
    await act(async () => vi.advanceTimersByTime(UNDO_WINDOW_MS));
    window.dispatchEvent(new Event('pagehide'));
    expect(deletesOf(fetchMock)).toEqual([]);
  });
});

describe('leaving for the logout endpoint', () => {
  it('sends the deletes still offering UNDO first, while the session lasts, then goes', async () => {
    const order: string[] = [];
    mockFetch({
      'GET /api/system/status': () => json({ destroyed: false }),
      'DELETE /api/studies/s1': () => {
        order.push('DELETE /api/studies/s1');
        return json({ id: 's1' });
      },
    });
    const go = vi.spyOn(navigation, 'go').mockImplementation((url) => void order.push(`go ${url}`));
    render(createElement(Toaster));
    act(() => scheduleDelete(createQueryClient(), STUDY, 's1'));
    await leaveFor('/api/logout');
    expect(order).toEqual(['DELETE /api/studies/s1', 'go /api/logout']);
    go.mockRestore();
  });
});
