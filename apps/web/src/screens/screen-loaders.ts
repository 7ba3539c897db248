import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { journalPagesQuery } from '../lib/journal';

/** A signed-in screen: its path, its code (loaded on demand), and the first data worth fetching with it. */
export interface SignedInScreen {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
  prefetch?: (queryClient: QueryClient) => Promise<unknown>;
}

/**
 * The one table of signed-in screens (spec section 2.1): the routes are made
 * from it (React.lazy) and so is the preload at sign-in, so a screen's chunk
 * is fetched once, whichever asks first.
 */
export const signedInScreens: readonly SignedInScreen[] = [
  { path: '/', load: () => import('./dashboard') },
  { path: '/weekly-schedule', load: () => import('./weekly-schedule') },
  // The journal's first page is the slowest first read: fetched with the screen's code.
  { path: '/journal', load: () => import('./journal'), prefetch: (queryClient) => queryClient.prefetchInfiniteQuery(journalPagesQuery) },
  { path: '/targets', load: () => import('./targets') },
  { path: '/bonaparte', load: () => import('./bonaparte') },
  { path: '/logs', load: () => import('./logs') },
  { path: '/studies-archive', load: () => import('./studies-archive') },
];

/** The header, navigation and routes of a signed-in owner. */
export const loadAuthenticatedApp = () => import('./authenticated-app');

/**
 * Once the owner is known to be signed in: fetch the app shell, the current
 * screen's code and its first data all at once, instead of one after another
 * as each one renders. Settles when all of them have (a failed preload is left
 * for the screen itself to retry and report).
 */
export function preloadSignedInScreen(pathname: string, queryClient: QueryClient): Promise<void> {
  const path = pathname.replace(/\/+$/, '') || '/';
  const screen = signedInScreens.find((s) => s.path === path);
  const started: Promise<unknown>[] = [loadAuthenticatedApp()];
  if (screen) started.push(screen.load(), screen.prefetch?.(queryClient) ?? Promise.resolve());
  return Promise.allSettled(started).then(() => undefined);
}
