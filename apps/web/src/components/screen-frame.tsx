import type { ReactNode } from 'react';

/** Title block and content area of a signed-in screen. */
export function ScreenFrame({
  title,
  subtitle,
  icon,
  actions,
  children,
}: {
  title: string;
  subtitle?: string;
  icon?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-4">
          {icon ? (
            <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl border-2 border-black bg-hero-cyan text-2xl sm:h-14 sm:w-14 sm:text-3xl text-black shadow-[4px_4px_0_0_#000]">
              {icon}
            </span>
          ) : null}
          <div>
            <h1 className="comic-title text-2xl leading-tight text-ink sm:text-4xl sm:leading-none">{title}</h1>
            {subtitle ? <p className="mt-2 text-sm text-muted sm:text-base">{subtitle}</p> : null}
          </div>
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

/** A titled panel card; `actions` sit at the right of its heading. */
export function Panel({
  title,
  subtitle,
  icon,
  accent = 'cyan',
  actions,
  children,
  className = '',
  headingLevel = 2,
}: {
  title: string;
  subtitle?: ReactNode;
  icon?: ReactNode;
  accent?: 'cyan' | 'red' | 'yellow' | 'green';
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const accentClass = {
    cyan: 'text-hero-cyan',
    red: 'text-hero-red',
    yellow: 'text-hero-yellow',
    green: 'text-hero-green',
  }[accent];
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={`panel min-w-0 p-5 sm:p-6 ${className}`}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Heading className={`comic-heading flex items-center gap-2 text-xl ${accentClass}`}>
            {icon}
            {title}
          </Heading>
          {subtitle ? <p className="mt-1 text-sm text-muted">{subtitle}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
