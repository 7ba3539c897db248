import { Suspense, useEffect } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { AppHeader } from '../components/header';
import { NotFoundScreen, ScreenLoading } from '../components/status-screens';
import { registerShellWorker } from '../lib/offline-shell';
import { lazyScreen } from './lazy-screen';
import { signedInScreens } from './screen-loaders';

// One lazy component per screen, made once from the shared table.
const screenRoutes = signedInScreens.map(({ path, load }) => ({ path, Screen: lazyScreen(load) }));

function Shell() {
  // Signed in: the installed app may now keep its shell for the times the vault cannot be reached.
  useEffect(() => registerShellWorker(), []);
  return (
    <div className="min-h-dvh">
      <a href="#main-content" className="btn btn-yellow sr-only z-50 focus:not-sr-only focus:fixed focus:left-4 focus:top-4">
        Skip to content
      </a>
      <AppHeader />
      <main id="main-content" tabIndex={-1} className="pb-[env(safe-area-inset-bottom)] outline-none">
        <Suspense fallback={<ScreenLoading title="INITIALIZING VAULT..." />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** Routes of a signed-in owner (spec section 2.1). */
export default function AuthenticatedApp() {
  return (
    <Routes>
      <Route element={<Shell />}>
        {screenRoutes.map(({ path, Screen }) =>
          path === '/' ? <Route key={path} index element={<Screen />} /> : <Route key={path} path={path.slice(1)} element={<Screen />} />,
        )}
      </Route>
      <Route path="*" element={<NotFoundScreen />} />
    </Routes>
  );
}
