import { createElement, lazy, type ComponentType } from 'react';
import type { OnceLoader, ScreenModule } from './screen-loaders';

/**
 * React.lazy, except that a module already here (preloaded at sign-in) renders
 * at once. A lazy component suspends on its first render even when its module
 * has arrived, and React then holds the boundary's content back until 300 ms
 * after its fallback showed: that wait was most of a reload's time to the
 * journal's first entries.
 */
export function lazyScreen(load: OnceLoader<ScreenModule>): ComponentType {
  const Lazy = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per screen when the routes are declared, never during a render.
  return function Screen() {
    const module = load.loaded();
    return createElement(module ? module.default : Lazy);
  };
}
