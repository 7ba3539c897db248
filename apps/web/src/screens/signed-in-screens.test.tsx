import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../test/utils';
import { loadAuthenticatedApp, signedInScreens } from './screen-loaders';
import { SIGNED_IN_SHELL_MODULE, screenHints } from './signed-in-screens';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The module a hint names, loaded the way the test runner resolves it (the same instance as the route's). */
const loadHinted = (module: string) => import(/* @vite-ignore */ `../../${module}`);

describe('screen hints', () => {
  it('name every signed-in screen, and only those', () => {
    expect(Object.keys(screenHints).sort()).toEqual(signedInScreens.map((s) => s.path).sort());
  });

  it('name the module each route loads, and the signed-in shell', async () => {
    for (const screen of signedInScreens) {
      expect(await loadHinted(screenHints[screen.path].module)).toBe(await screen.load());
    }
    expect(await loadHinted(SIGNED_IN_SHELL_MODULE)).toBe(await loadAuthenticatedApp());
  });

  // A hinted read the screen does not make would be fetched for nothing; one it makes
  // differently (another URL) would be fetched twice.
  for (const screen of signedInScreens) {
    it(`on ${screen.path}, name only reads the screen makes as it first renders`, async () => {
      const fetchMock = mockFetch({});
      const { default: Screen } = await screen.load();
      renderWithProviders(<Screen />, { route: screen.path });
      const reads = () => fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET').map(([url]) => String(url));
      await waitFor(() => expect(reads()).toEqual(expect.arrayContaining(screenHints[screen.path].reads)));
    });
  }
});
