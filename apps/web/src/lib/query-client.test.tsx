import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { navigation } from './navigation';
import { mockFetch, renderWithProviders, text } from '../test/utils';

function Reader({ immediate = false }: { immediate?: boolean }) {
  const query = useQuery({ queryKey: ['/api/journal'], meta: immediate ? { unauthorized: 'immediate' } : undefined });
  return <p>{query.status}</p>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a read refused with 401 Unauthorized', () => {
  it('toasts and redirects to /api/login after 500 ms, wherever the read was made', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/journal': () => text('Unauthorized', 401, 'Unauthorized') });
    renderWithProviders(<Reader />);

    expect(await screen.findByText('You are logged out. Logging in again...')).toBeTruthy();
    expect(go).not.toHaveBeenCalled();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/login'), { timeout: 2000 });
  });

  it('redirects at once and silently for a read marked immediate (the balance screen)', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/journal': () => text('Unauthorized', 401, 'Unauthorized') });
    renderWithProviders(<Reader immediate />);

    await waitFor(() => expect(go).toHaveBeenCalledExactlyOnceWith('/api/login'));
    expect(screen.queryByText('Unauthorized')).toBeNull();
  });

  it('leaves other failures to the screen', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {});
    mockFetch({ 'GET /api/journal': () => text('Not found', 404, 'Not Found') });
    renderWithProviders(<Reader />);
    expect(await screen.findByText('error')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toBe('');
    expect(go).not.toHaveBeenCalled();
  });
});
