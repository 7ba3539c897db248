import { useSyncExternalStore } from 'react';

/** The spec's mobile breakpoint: under 768 px is mobile (Tailwind's `md` is the same 48rem). */
export const DESKTOP_QUERY = '(min-width: 768px)';

function mediaQueryList(query: string): MediaQueryList | undefined {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : undefined;
}

/** Whether a media query matches now; re-renders when that changes (resize, rotation). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaQueryList(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => mediaQueryList(query)?.matches ?? false,
    () => false,
  );
}
