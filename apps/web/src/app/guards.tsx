import type { ReactNode } from 'react';
import type { Permission } from '@zapdesk/shared/permissions';
import { Navigate } from 'react-router';
import { useAuth } from '../core/auth/AuthProvider';
import { CenteredLoader } from '../core/ui/CenteredLoader';
import { NoPermissionPage } from './pages/NoPermissionPage';

/** Login and signup: a signed-in user goes to the dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <CenteredLoader fullScreen />;
  if (state.status === 'authenticated') return <Navigate to="/" replace />;
  return children;
}

/** Every other page: a visitor goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <CenteredLoader fullScreen />;
  if (state.status === 'anonymous') return <Navigate to="/login" replace />;
  return children;
}

/** Admin pages: other users see the 'no permission' page (the server refuses their calls anyway). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) return <NoPermissionPage />;
  return children;
}

/** Pages of a power (bulk sends, groups...): a user whose role lacks it sees the 'no permission' page. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { can } = useAuth();
  if (!can(permission)) return <NoPermissionPage />;
  return children;
}
