import { Link } from 'react-router-dom';
import { AlertIcon, ShieldIcon } from './icons';

/** Full-screen loading state shown while the vault checks status and authentication. */
export function InitializingScreen({ text = 'INITIALIZING VAULT...' }: { text?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center p-6">
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
    <main className="flex min-h-dvh items-center justify-center p-6">
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
