import { Link } from 'react-router-dom';
import { AlertIcon, ShieldIcon } from './icons';

/**
 * A full screen's padding, at least clear of the notch and the home indicator
 * when the installed app draws under them (viewport-fit=cover in index.html).
 */
export const SAFE_SCREEN_PADDING = 'pt-[max(1.5rem,env(safe-area-inset-top))] pb-[max(1.5rem,env(safe-area-inset-bottom))]';

/** Full-screen loading state shown while the vault checks status and authentication. */
export function InitializingScreen({ text = 'INITIALIZING VAULT...' }: { text?: string }) {
  return (
    <div className={`flex min-h-dvh items-center justify-center p-6 ${SAFE_SCREEN_PADDING}`}>
      <div className="flex flex-col items-center gap-5 text-center" role="status" aria-live="polite">
        <span className="relative flex h-16 w-16 items-center justify-center">
          <span className="absolute inset-0 animate-ping rounded-full bg-hero-red/30" />
          <span className="relative flex h-16 w-16 items-center justify-center rounded-full border-2 border-black bg-hero-red-deep text-3xl text-white shadow-[4px_4px_0_0_#000]">
            <ShieldIcon />
          </span>
        </span>
        <p className="comic-heading text-xl text-hero-yellow sm:text-2xl">{text}</p>
      </div>
    </div>
  );
}

/** Loading state inside a signed-in screen (title and sub-line). */
export function ScreenLoading({ title, detail }: { title: string; detail?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center p-6">
      <div className="flex flex-col items-center gap-4 text-center" role="status" aria-live="polite">
        <span className="h-12 w-12 animate-spin rounded-full border-4 border-edge border-t-hero-cyan" aria-hidden="true" />
        <p className="comic-heading text-lg text-hero-cyan sm:text-xl">{title}</p>
        {detail ? <p className="text-sm text-muted">{detail}</p> : null}
      </div>
    </div>
  );
}

/** The not-found screen for every path that is not offered. */
export function NotFoundScreen() {
  return (
    <main className={`flex min-h-dvh items-center justify-center p-6 ${SAFE_SCREEN_PADDING}`}>
      <div className="panel w-full max-w-md p-8 text-center">
        <span className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full border-2 border-black bg-hero-yellow text-2xl text-black shadow-[3px_3px_0_0_#000]">
          <AlertIcon />
        </span>
        <h1 className="comic-title text-3xl text-ink">404 Page Not Found</h1>
        <Link to="/" className="btn btn-ghost mt-6">
          Return to base
        </Link>
      </div>
    </main>
  );
}

export const UNREACHABLE_TITLE = 'VAULT UNREACHABLE';

/**
 * Shown instead of the browser's error page when the vault does not answer
 * (no network, or its address is down): the installed app opens from its
 * offline shell and says so, in the vault's look, with a way to try again.
 */
export function UnreachableScreen({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <main className={`flex min-h-dvh items-center justify-center p-6 ${SAFE_SCREEN_PADDING}`}>
      <div className="w-full max-w-md text-center">
        <span className="relative mx-auto mb-6 flex h-20 w-20 -rotate-6 items-center justify-center rounded-2xl border-[3px] border-black bg-hero-red-deep text-4xl text-white shadow-[6px_6px_0_0_#000]">
          <ShieldIcon />
          <span className="absolute -right-4 -top-4 flex h-10 w-10 rotate-6 items-center justify-center rounded-full border-2 border-black bg-hero-yellow text-xl text-black shadow-comic-sm">
            <AlertIcon />
          </span>
        </span>
        <h1 className="comic-title text-4xl leading-none text-hero-red sm:text-5xl">{UNREACHABLE_TITLE}</h1>
        <div className="panel mt-6 overflow-hidden text-left">
          <div className="hazard border-b-2 border-black px-3 py-2">
            <p className="comic-heading mx-auto w-fit rounded bg-black px-3 py-1 text-sm text-hero-yellow">NO SIGNAL FROM THE VAULT</p>
          </div>
          <div className="space-y-4 p-6 sm:p-8">
            <p className="text-ink" role="alert">
              The vault did not answer. Check this device&apos;s connection, then try again.
            </p>
            <p className="text-sm text-muted">Nothing of the vault is kept on this device: your data shows again once the vault answers.</p>
            <button type="button" className="btn btn-yellow w-full" onClick={onRetry} disabled={retrying}>
              {retrying ? 'RETRYING...' : 'RETRY'}
            </button>
          </div>
        </div>
      </div>
    </main>
  );
}
