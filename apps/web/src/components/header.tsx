import { HTTP_ROUTES } from '@vault/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { DESKTOP_QUERY, useMediaQuery } from '../lib/media-query';
import { leaveFor } from '../lib/leave';
import { forgetOfflineShell } from '../lib/offline-shell';
import { rememberScreen } from '../lib/return-path';
import { isGlobalAccessOn, SIGN_IN_STATE, useAuth, vaultTitle } from '../lib/session';
import { SIGNED_IN_SCREENS } from '../screens/signed-in-screens';
import { CloseIcon, GlobeIcon, LogInIcon, LogOutIcon, MenuIcon, ShieldIcon } from './icons';
import { SettingsMenu } from './settings-panel';

export interface NavItem {
  to: string;
  label: string;
}

/** Navigation of the signed-in screens (spec section 2.1): those of the one table with a label, in its order. */
export const NAV_ITEMS: readonly NavItem[] = SIGNED_IN_SCREENS.flatMap(({ path, nav }) => (nav ? [{ to: path, label: nav }] : []));

export const LOGOUT_CONFIRM = 'Terminate secure session?';
export const LOGOUT_ENDPOINT = HTTP_ROUTES.logout.path;
export const CLOCK_INTERVAL_MS = 1000;

/** 24-hour HH:MM:SS. */
export function formatClock(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** What a visitor sees while global access is on, and the owner too. */
export const GLOBAL_ACCESS_BANNER = 'GLOBAL ACCESS ACTIVE: this vault is open to anyone who reaches it';
export const VISITOR_NOTE = 'You are browsing as a visitor. The owner signs in to change settings.';

/**
 * After the confirm, to the logout endpoint; a vault destroyed meanwhile shows its farewell page instead.
 * The installed app's worker and caches go first: the device keeps nothing once the owner has left.
 */
export function logout(): void {
  if (window.confirm(LOGOUT_CONFIRM)) {
    void forgetOfflineShell().then(() => leaveFor(LOGOUT_ENDPOINT));
  }
}

/** The live clock; its own component so that only it re-renders every second. */
function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="whitespace-nowrap font-mono text-ink">
      <span className="sr-only">Current time </span>
      <time dateTime={now.toISOString()} data-testid="header-clock">
        {formatClock(now)}
      </time>
    </span>
  );
}

function navClass({ isActive }: { isActive: boolean }): string {
  return [
    'btn w-full justify-start px-4 text-sm md:w-auto md:justify-center',
    isActive ? 'bg-hero-yellow text-black' : 'border-edge bg-panel text-ink shadow-none hover:border-hero-cyan hover:text-hero-cyan',
  ].join(' ');
}

/**
 * Header of every signed-in screen (spec section 2.3). A visitor of a public
 * vault (global access, no session) gets SIGN IN instead of SETTINGS and
 * LOGOUT, which only the owner's session can use.
 */
export function AppHeader() {
  const { user, isVisitor } = useAuth();
  const navigate = useNavigate();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const publicAccess = isGlobalAccessOn(user);

  // Close the mobile menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  // Escape closes the open mobile menu and hands focus back to its toggle.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <>
      {/* The top inset: installed on a phone, the header's ground runs under the status bar and its controls below it. */}
      <header className="sticky top-0 z-40 border-b-2 border-black bg-vault-deep/95 pt-[env(safe-area-inset-top)] shadow-[0_4px_0_0_#000] backdrop-blur">
        <div className="h-1 bg-gradient-to-r from-hero-red-deep via-hero-yellow to-hero-cyan" aria-hidden="true" />
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <div className="flex items-center gap-3 py-3">
            <span
              className="flex h-11 w-11 shrink-0 -rotate-6 items-center justify-center rounded-xl border-2 border-black bg-hero-red-deep text-2xl text-white shadow-comic-sm"
              aria-hidden="true"
            >
              <ShieldIcon />
            </span>
            <div className="min-w-0 flex-1">
              <p className="comic-heading truncate text-2xl leading-none text-hero-yellow sm:text-3xl">{vaultTitle(user?.name)}</p>
              <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs font-semibold tracking-wider text-hero-green sm:text-sm sm:tracking-widest">
                <span className="flex items-center gap-2 whitespace-nowrap">
                  <span className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-hero-green" aria-hidden="true" />
                  SECURE CONNECTION
                </span>
                <Clock />
                {publicAccess ? (
                  <span className="badge gap-1 bg-hero-yellow text-black" title="Global access is on: anyone can open the vault">
                    <GlobeIcon />
                    PUBLIC ACCESS
                  </span>
                ) : null}
              </div>
            </div>
            {isVisitor ? (
              <button
                type="button"
                onClick={() => {
                  // Signed in, the owner comes back to this screen.
                  rememberScreen();
                  navigate('/', { state: SIGN_IN_STATE });
                }}
                className="btn btn-yellow px-3 text-sm sm:px-4"
                aria-label="SIGN IN"
              >
                <LogInIcon />
                {/* A phone gets the icon alone, as LOGOUT does, so the title keeps its room. */}
                <span className="hidden sm:inline">SIGN IN</span>
              </button>
            ) : (
              <>
                {isDesktop ? <SettingsMenu globalAccess={publicAccess} /> : null}
                <button type="button" onClick={logout} className="btn btn-red px-3 text-sm sm:px-4" aria-label="Logout">
                  <LogOutIcon />
                  <span className="hidden sm:inline">LOGOUT</span>
                </button>
              </>
            )}
            <button
              ref={toggleRef}
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
          <nav id={navId} aria-label="Main navigation" className={[menuOpen ? 'block' : 'hidden', 'pb-4 md:block md:pb-3'].join(' ')}>
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
      {publicAccess ? <GlobalAccessBanner visitor={isVisitor} /> : null}
    </>
  );
}

/**
 * Says, under the header, that the vault is public while global access is on:
 * to a visitor, and in the same words to the owner. It scrolls away with the
 * page; the header's PUBLIC ACCESS badge stays in view.
 */
function GlobalAccessBanner({ visitor }: { visitor: boolean }) {
  return (
    <div className="hazard border-b-2 border-black px-4 py-2">
      <div className="mx-auto flex w-fit max-w-full flex-col items-center gap-1 rounded-md border-2 border-black bg-black px-3 py-1.5 text-center">
        <p className="comic-heading flex items-start gap-2 text-sm text-hero-yellow sm:items-center">
          <GlobeIcon className="mt-0.5 shrink-0 sm:mt-0" />
          {GLOBAL_ACCESS_BANNER}
        </p>
        {visitor ? <p className="text-xs font-semibold text-ink">{VISITOR_NOTE}</p> : null}
      </div>
    </div>
  );
}
