import { lazy, Suspense } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { AppHeader } from '../components/header';
import { NotFoundScreen, ScreenLoading } from '../components/status-screens';

const DashboardScreen = lazy(() => import('./dashboard'));
const TargetsScreen = lazy(() => import('./targets'));
const WeeklyScheduleScreen = lazy(() => import('./weekly-schedule'));
const JournalScreen = lazy(() => import('./journal'));
const BonaparteScreen = lazy(() => import('./bonaparte'));
const LogsScreen = lazy(() => import('./logs'));
const StudiesArchiveScreen = lazy(() => import('./studies-archive'));

function Shell() {
  return (
    <div className="min-h-dvh">
      <a
        href="#main-content"
        className="btn btn-yellow sr-only z-50 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <AppHeader />
      <main id="main-content" tabIndex={-1} className="outline-none">
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
        <Route index element={<DashboardScreen />} />
        <Route path="weekly-schedule" element={<WeeklyScheduleScreen />} />
        <Route path="journal" element={<JournalScreen />} />
        <Route path="targets" element={<TargetsScreen />} />
        <Route path="bonaparte" element={<BonaparteScreen />} />
        <Route path="logs" element={<LogsScreen />} />
        <Route path="studies-archive" element={<StudiesArchiveScreen />} />
      </Route>
      <Route path="*" element={<NotFoundScreen />} />
    </Routes>
  );
}
