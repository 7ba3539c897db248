import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { InitializingScreen, NotFoundScreen } from './components/status-screens';
import { Toaster } from './components/toaster';
import { FarewellScreen } from './screens/farewell';
import { LoginScreen } from './screens/login';
import { useAuth, useOwner, useSystemStatus } from './lib/session';

// Everything behind the login is loaded on demand so the login screen stays small.
const AuthenticatedApp = lazy(() => import('./screens/authenticated-app'));

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

  if (status.isLoading) return <InitializingScreen />;
  if (status.destroyed) {
    if (owner.isPending) return <InitializingScreen />;
    return <FarewellScreen name={owner.data?.name} />;
  }
  return <AuthGate owner={owner} />;
}

function AuthGate({ owner }: { owner: ReturnType<typeof useOwner> }) {
  const auth = useAuth();

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

  return (
    <Suspense fallback={<InitializingScreen />}>
      <AuthenticatedApp />
    </Suspense>
  );
}
