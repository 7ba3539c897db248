import { Suspense, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { InitializingScreen, NotFoundScreen, UnreachableScreen } from './components/status-screens';
import { Toaster } from './components/toaster';
import { FarewellScreen } from './screens/farewell';
import { LoginScreen } from './screens/login';
import { markVaultGone, useVaultGone } from './lib/farewell';
import { forgetOfflineShell } from './lib/offline-shell';
import { OWNER_KEY, STATUS_KEY, USER_KEY, useAuth, useOwner, useRetryFirstCalls, useSystemStatus, wantsSignIn } from './lib/session';
import { lazyScreen } from './screens/lazy-screen';
import { loadAuthenticatedApp, preloadSignedInScreen } from './screens/screen-loaders';

// Everything behind the login is loaded on demand so the login screen stays small.
const AuthenticatedApp = lazyScreen(loadAuthenticatedApp);

/** Root component: system status, then authentication, then the routes (spec section 2.1). */
export function App() {
  return (
    <>
      <VaultGate />
      <Toaster />
    </>
  );
}

function VaultGate() {
  const status = useSystemStatus();
  // The owner profile is public; start loading it at once for the login title or the farewell page.
  const owner = useOwner();
  // Asked at once too, not after the status: a destroyed vault answers it with 410 (which marks it gone).
  const auth = useAuth();
  // Learnt on this page: its own PERFECT CELL was confirmed, or a call answered 410.
  const gone = useVaultGone();
  const queryClient = useQueryClient();
  const retry = useRetryFirstCalls();

  // A vault found destroyed at start erases what it left on this device too (drafts).
  useEffect(() => {
    if (status.destroyed) markVaultGone();
  }, [status.destroyed]);

  // Nothing of the erased vault stays in memory: every read goes but the three this
  // component watches, which hold no vault data (the status, the owner's public name).
  // Nor on the device: the installed app's worker and caches go too.
  useEffect(() => {
    if (!gone) return;
    void forgetOfflineShell();
    queryClient.setQueryData(STATUS_KEY, { destroyed: true });
    const kept = new Set([STATUS_KEY, OWNER_KEY, USER_KEY].map((key) => key.join('/')));
    queryClient.removeQueries({ predicate: (query) => !kept.has(query.queryKey.join('/')) });
  }, [gone, queryClient]);

  if (gone) return owner.isPending ? <InitializingScreen /> : <FarewellScreen name={owner.data?.name} />;
  if (status.isLoading) return <InitializingScreen />;
  // No answer at all (offline, or the vault is down): the app says so instead of a login it could not send.
  if (status.unreachable) return <UnreachableScreen onRetry={() => void retry()} retrying={status.retrying} />;
  if (status.destroyed) {
    if (owner.isPending) return <InitializingScreen />;
    return <FarewellScreen name={owner.data?.name} />;
  }
  return <AuthGate owner={owner} auth={auth} />;
}

function AuthGate({ owner, auth }: { owner: ReturnType<typeof useOwner>; auth: ReturnType<typeof useAuth> }) {
  const { pathname, state } = useLocation();
  const queryClient = useQueryClient();
  // The signed-in shell is rendered once its code and the screen's have arrived, so
  // that neither shows a loading fallback first (INITIALIZING VAULT... stays meanwhile).
  const [codeLoaded, setCodeLoaded] = useState(() => loadAuthenticatedApp.loaded() !== undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per sign-in, for the screen it opens on; a later navigation loads its own screen.
  useEffect(() => {
    if (!auth.isAuthenticated) return;
    let current = true;
    void preloadSignedInScreen(pathname, queryClient).then(() => current && setCodeLoaded(true));
    return () => {
      current = false;
    };
    // Only at sign-in: later navigation loads its screen as it renders.
  }, [auth.isAuthenticated]);

  // Signed out, or not yet known to be signed in: only / is offered (the login screen,
  // or "INITIALIZING VAULT..." while the answers it needs are on their way).
  if (auth.isLoading || !auth.isAuthenticated) {
    const landing = auth.isLoading || owner.isPending ? <InitializingScreen /> : <LoginScreen owner={owner.data} />;
    return (
      <Routes>
        <Route path="/" element={landing} />
        <Route path="*" element={<NotFoundScreen />} />
      </Routes>
    );
  }

  // A visitor of a public vault who chose SIGN IN (header) gets the login form at /,
  // with a way back; signed in, the page reloads as the owner's.
  if (auth.isVisitor && pathname === '/' && wantsSignIn(state)) {
    return (
      <LoginScreen
        owner={owner.data ?? auth.user}
        footer={
          <Link to="/" className="btn btn-ghost text-sm">
            Back to the vault
          </Link>
        }
      />
    );
  }

  if (!codeLoaded) return <InitializingScreen />;
  return (
    <Suspense fallback={<InitializingScreen />}>
      <AuthenticatedApp />
    </Suspense>
  );
}
