import type { ReactNode } from 'react';
import { AlertIcon } from './icons';

/** What a list or card shows when there is nothing in it. */
export function EmptyState({ children, hint, icon }: { children: ReactNode; hint?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="rounded-lg border-2 border-dashed border-edge px-4 py-6 text-center">
      {icon ? (
        <span className="mx-auto mb-2 flex h-10 w-10 items-center justify-center text-3xl text-muted" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      <p className="font-semibold text-muted">{children}</p>
      {hint ? <p className="mt-1 text-sm text-muted">{hint}</p> : null}
    </div>
  );
}

/**
 * A read that failed (other than 401, which redirects). Shown instead of the
 * content, so a failing service never passes for an empty list. RETRY reads
 * that data again (`onRetry`, the query's refetch); it reads RETRYING... while
 * the new read is on its way.
 */
export function LoadError({ error, onRetry, retrying = false }: { error: Error; onRetry: () => void; retrying?: boolean }) {
  return (
    <div className="flex flex-wrap items-start gap-3 rounded-lg border-2 border-hero-red/70 bg-hero-red-deep/15 px-4 py-3 text-sm">
      <AlertIcon className="mt-0.5 shrink-0 text-base text-hero-red" />
      <p className="min-w-0 flex-1 text-ink">
        <span className="comic-heading mr-2 text-hero-red">SIGNAL LOST</span>
        <span className="break-words font-mono text-xs text-muted">{error.message}</span>
      </p>
      <button type="button" className="btn btn-ghost min-h-9 shrink-0 px-3 py-1 text-xs" onClick={onRetry} disabled={retrying}>
        {retrying ? 'RETRYING...' : 'RETRY'}
      </button>
    </div>
  );
}

/** A small loading line inside a card. */
export function CardLoading({ children = 'Loading...' }: { children?: ReactNode }) {
  return (
    <p className="flex items-center gap-3 py-4 text-sm text-muted" role="status">
      <span className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-edge border-t-hero-cyan" aria-hidden="true" />
      {children}
    </p>
  );
}
