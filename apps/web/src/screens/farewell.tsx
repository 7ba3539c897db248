import { SkullIcon } from '../components/icons';
import { SAFE_SCREEN_PADDING } from '../components/status-screens';

/** Shown on every route once the vault has self-destructed. */
export function FarewellScreen({ name }: { name?: string | null }) {
  const who = name?.trim() || 'the owner';
  return (
    <main className={`flex min-h-dvh items-center justify-center p-6 ${SAFE_SCREEN_PADDING}`}>
      <div className="w-full max-w-xl text-center">
        <span className="mx-auto mb-8 flex h-20 w-20 items-center justify-center rounded-full border-2 border-edge bg-panel text-4xl text-muted">
          <SkullIcon />
        </span>
        <h1 className="comic-heading text-3xl leading-tight text-ink sm:text-4xl">Here lies the mind of {who}</h1>
        <div className="mx-auto my-6 h-1 w-24 rounded bg-hero-red-deep" aria-hidden="true" />
        <p className="text-lg text-muted">The self-destruct routine has been executed.</p>
        <p className="mt-2 text-lg text-muted">All data has been permanently erased.</p>
      </div>
    </main>
  );
}
