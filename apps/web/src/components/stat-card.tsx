import type { ReactNode } from 'react';

export type StatTone = 'red' | 'green' | 'cyan' | 'yellow';

const TONES: Record<StatTone, string> = {
  red: 'bg-hero-red-deep text-white',
  green: 'bg-hero-green text-black',
  cyan: 'bg-hero-cyan text-black',
  yellow: 'bg-hero-yellow text-black',
};

/**
 * A labelled number; place it directly inside a <dl>. The group holds only its
 * <dt> and <dd> (as a definition list must), so the icon sits inside the term.
 */
export function StatCard({ label, value, icon, tone }: { label: string; value: string; icon: ReactNode; tone: StatTone }) {
  return (
    <div className="panel flex min-h-22 flex-col-reverse justify-center gap-1 p-5 pl-22">
      <dt className="text-sm font-semibold tracking-wide text-muted">
        <span
          className={`absolute left-5 top-1/2 flex h-12 w-12 -translate-y-1/2 items-center justify-center rounded-lg border-2 border-black text-2xl shadow-comic-sm ${TONES[tone]}`}
          aria-hidden="true"
        >
          {icon}
        </span>
        {label}
      </dt>
      <dd className="comic-heading text-3xl leading-none text-ink">{value}</dd>
    </div>
  );
}
