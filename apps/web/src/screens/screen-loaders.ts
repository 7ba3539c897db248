import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { journalPagesQuery } from '../lib/journal';
import { SIGNED_IN_SCREENS } from './signed-in-screens';

/** A screen's module: its component is the default export. */
export interface ScreenModule {
  default: ComponentType;
}

/** Loads a module once, whoever asks first (a failed load may be asked again), and says whether it is here yet. */
export type OnceLoader<T> = (() => Promise<T>) & { loaded(): T | undefined };

export function loadOnce<T>(load: () => Promise<T>): OnceLoader<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  const loader = () =>
    (loading ??= load().then(
      (loadedModule) => (module = loadedModule),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(loader, { loaded: () => module });
}

/** A signed-in screen: its path, its code (loaded on demand), and the first data worth fetching with it. */
export interface SignedInScreen {
  path: string;
  load: OnceLoader<ScreenModule>;
  prefetch?: (queryClient: QueryClient) => Promise<unknown>;
}

/**
 * Every screen module the table may name, each loaded on demand (the build
 * resolves the pattern). Not the pages a visitor sees, which come with the
 * page itself, nor the signed-in shell (loadAuthenticatedApp).
 */
const screenModules = import.meta.glob<ScreenModule>(['./*.tsx', '!./*.test.tsx', '!./login.tsx', '!./farewell.tsx', '!./authenticated-app.tsx']);

/** The first data worth fetching with a screen's code, by path: the journal's first page is the slowest first read. */
const PREFETCH: Record<string, SignedInScreen['prefetch']> = {
  '/journal': (queryClient) => queryClient.prefetchInfiniteQuery(journalPagesQuery),
};

function loaderOf(module: string): OnceLoader<ScreenModule> {
  const load = screenModules[`./${module.slice('src/screens/'.length)}`];
  if (!load) throw new Error(`signed-in-screens.ts names ${module}, which is not a module of src/screens`);
  return loadOnce(load);
}

/**
 * The signed-in screens of the one table (signed-in-screens.ts) with their
 * code: the routes are made from them (lazyScreen) and so is the preload at
 * sign-in, so a screen's chunk is fetched once, whichever asks first.
 */
export const signedInScreens: readonly SignedInScreen[] = SIGNED_IN_SCREENS.map(({ path, module }) => ({
  path,
  load: loaderOf(module),
  prefetch: PREFETCH[path],
}));

/** The header, navigation and routes of a signed-in owner. */
export const loadAuthenticatedApp = loadOnce(() => import('./authenticated-app'));

/**
 * Once the owner is known to be signed in: fetch the app shell, the current
 * screen's code and its first data all at once, instead of one after another
 * as each one renders. Settles when the code has arrived (or failed: the
 * screen then retries and reports); the data comes when it comes, and the
 * screen shows its own loading state meanwhile.
 */
export function preloadSignedInScreen(pathname: string, queryClient: QueryClient): Promise<void> {
  const path = pathname.replace(/\/+$/, '') || '/';
  const screen = signedInScreens.find((s) => s.path === path);
  void screen?.prefetch?.(queryClient);
  const code: Promise<unknown>[] = [loadAuthenticatedApp()];
  if (screen) code.push(screen.load());
  return Promise.allSettled(code).then(() => undefined);
}
