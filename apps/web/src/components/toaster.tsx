import { dismissToast, runToastAction, useToasts } from '../lib/toast';
import { AlertIcon, CheckIcon, CloseIcon } from './icons';

/**
 * Renders the (single) current toast inside a polite live region, at the
 * bottom of the viewport (bottom-right from 640 px): the header's controls,
 * the mobile menu and the settings panel that opens under the header all sit
 * at the top, and a toast there covered them for its 5 to 8 s.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-center gap-3 p-4 pb-[max(1rem,env(safe-area-inset-bottom))] sm:left-auto sm:right-0 sm:items-end"
    >
      {toasts.map((t) => {
        const destructive = t.variant === 'destructive';
        return (
          <div
            key={t.id}
            data-variant={t.variant}
            className={[
              'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border-2 border-black p-4 shadow-[5px_5px_0_0_#000]',
              destructive ? 'bg-hero-red-deep text-white' : 'bg-panel-2 text-ink ring-2 ring-hero-cyan/60',
            ].join(' ')}
          >
            <span
              className={[
                'mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full border-2 border-black text-base',
                destructive ? 'bg-hero-yellow text-black' : 'bg-hero-cyan text-black',
              ].join(' ')}
            >
              {destructive ? <AlertIcon /> : <CheckIcon />}
            </span>
            <div className="min-w-0 flex-1">
              <p className="comic-heading text-base leading-tight">{t.title}</p>
              {t.description ? <p className="mt-1 text-sm leading-snug opacity-95">{t.description}</p> : null}
              {t.detail ? <p className="mt-1 break-words font-mono text-xs leading-snug opacity-90">{t.detail}</p> : null}
            </div>
            {t.action ? (
              <button type="button" onClick={() => runToastAction(t.id)} className="btn btn-yellow min-h-9 shrink-0 self-center px-3 py-1 text-xs">
                {t.action.label}
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => dismissToast(t.id)}
              aria-label="Dismiss notification"
              className="-m-1 rounded p-1 text-lg opacity-90 hover:opacity-100"
            >
              <CloseIcon />
            </button>
          </div>
        );
      })}
    </div>
  );
}
