import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CenteredLoader } from '../core/ui/CenteredLoader';
import { AppShell } from './shell/AppShell';
import { PublicOnly, RequireAdmin, RequireAuth, RequirePermission } from './guards';
import { NotFoundPage } from './pages/NotFoundPage';
import { PRIVATE_ROUTES, type PrivateRoute } from './routes';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const SignupPage = lazy(() => import('../features/auth/SignupPage'));

// One lazy component per page loader, made once (not on every render). Routes sharing a loader
// share the component, so moving between them keeps the page mounted (/tickets and /tickets/:id).
const pages = new Map<PrivateRoute['load'], LazyExoticComponent<ComponentType>>();
for (const route of PRIVATE_ROUTES) {
  if (!pages.has(route.load)) pages.set(route.load, lazy(route.load));
}

function RoutePage({ route }: { route: PrivateRoute }) {
  const Page = pages.get(route.load);
  if (!Page) return null;
  const element = <Page />;
  if (route.adminOnly) return <RequireAdmin>{element}</RequireAdmin>;
  return route.permission ? <RequirePermission permission={route.permission}>{element}</RequirePermission> : element;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Suspense fallback={<CenteredLoader fullScreen />}>
        <Routes>
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route
            path="/signup"
            element={
              <PublicOnly>
                <SignupPage />
              </PublicOnly>
            }
          />
          <Route
            element={
              <RequireAuth>
                <AppShell />
              </RequireAuth>
            }
          >
            {PRIVATE_ROUTES.map((route) => (
              <Route key={route.path} path={route.path} element={<RoutePage route={route} />} />
            ))}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
