import { useEffect, useId, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { navigation } from '../lib/navigation';
import { useAuth, vaultTitle } from '../lib/session';
import { CloseIcon, LogOutIcon, MenuIcon, ShieldIcon } from './icons';

export interface NavItem {
  to: string;
  label: string;
}

/** Navigation of the signed-in screens (spec section 2.1). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'COMMAND CENTER' },
  { to: '/weekly-schedule', label: 'SCHEDULE' },
  { to: '/journal', label: 'INTEL VAULT' },
  { to: '/targets', label: 'TARGETS' },
  { to: '/bonaparte', label: 'BONAPARTE' },
  { to: '/logs', label: 'LOGS' },
];

export const LOGOUT_CONFIRM = 'Terminate secure session?';
export const LOGOUT_ENDPOINT = '/api/logout';

/** 24-hour HH:MM:SS. */
export function formatClock(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function logout(): void {
  if (window.confirm(LOGOUT_CONFIRM)) {
    navigation.go(LOGOUT_ENDPOINT);
  }
}

function navClass({ isActive }: { isActive: boolean }): string {
  return [
    'btn w-full justify-start px-4 text-sm md:w-auto md:justify-center',
    isActive
      ? 'bg-hero-yellow text-black'
      : 'border-edge bg-panel text-ink shadow-none hover:border-hero-cyan hover:text-hero-cyan',
  ].join(' ');
}

/** Header of every signed-in screen (spec section 2.3). */
export function AppHeader() {
  const { user } = useAuth();
  const now = useClock();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const location = useLocation();

  // Close the mobile menu after navigating.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  return (
    <header className="sticky top-0 z-40 border-b-2 border-black bg-vault-deep/95 shadow-[0_4px_0_0_#000] backdrop-blur">
      <div className="h-1 bg-gradient-to-r from-hero-red-deep via-hero-yellow to-hero-cyan" aria-hidden="true" />
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex items-center gap-3 py-3">
          <span className="flex h-11 w-11 shrink-0 -rotate-6 items-center justify-center rounded-xl border-2 border-black bg-hero-red-deep text-2xl text-white shadow-[3px_3px_0_0_#000]">
            <ShieldIcon />
          </span>
          <div className="min-w-0 flex-1">
            <p className="comic-heading truncate text-2xl leading-none text-hero-yellow sm:text-3xl">{vaultTitle(user?.name)}</p>
            <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs font-semibold tracking-wider text-hero-green sm:text-sm sm:tracking-widest">
              <span className="flex items-center gap-2 whitespace-nowrap">
                <span className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-hero-green" aria-hidden="true" />
                SECURE CONNECTION
              </span>
              <time className="whitespace-nowrap font-mono text-ink" dateTime={now.toISOString()} aria-label="Current time">
                {formatClock(now)}
              </time>
            </p>
          </div>
          <button type="button" onClick={logout} className="btn btn-red px-3 text-sm sm:px-4" aria-label="Logout">
            <LogOutIcon />
            <span className="hidden sm:inline">LOGOUT</span>
          </button>
          <button
            type="button"
            className="btn btn-ghost px-3 text-xl md:hidden"
            aria-expanded={menuOpen}
            aria-controls={navId}
            aria-label={menuOpen ? 'Close navigation menu' : 'Open navigation menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
        <nav
          id={navId}
          aria-label="Main navigation"
          className={[menuOpen ? 'block' : 'hidden', 'pb-4 md:block md:pb-3'].join(' ')}
        >
          <ul className="flex flex-col gap-2 md:flex-row md:flex-wrap">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === '/'} className={navClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
