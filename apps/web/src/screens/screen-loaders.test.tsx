import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { json, mockFetch } from '../test/utils';
import { preloadSignedInScreen, signedInScreens } from './screen-loaders';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('signed-in screens', () => {
  it('offers each path once', () => {
    const paths = signedInScreens.map((s) => s.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('/journal');
  });

  it('fetches the journal first page at sign-in on /journal (a trailing slash too), and no data for other screens', async () => {
    const fetchMock = mockFetch({ 'GET /api/journal?limit=50&offset=0': () => json([]) });
    const queryClient = createQueryClient();

    // Awaited so that the screens' code has finished loading before the test environment goes.
    await preloadSignedInScreen('/targets', queryClient);
    expect(fetchMock).not.toHaveBeenCalled();

    await preloadSignedInScreen('/journal/', queryClient);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/journal?limit=50&offset=0']);
  });
});
