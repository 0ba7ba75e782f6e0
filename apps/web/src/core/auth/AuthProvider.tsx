/**
 * The session: restored from the refresh cookie at start, set by login, ended by logout or by
 * any 401 the API client meets. Pages read it with useAuth().
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { Permission } from '@zapdesk/shared/permissions';
import type { TLoginResponse, TLogin, TUser } from '@zapdesk/shared/schemas';
import { endSessionLocally, onSessionEvent, refreshSession, request, requestVoid } from '../api/client';
import { setToken } from '../api/tokenStore';

/** `permissions`: what the user may use, as the server said at sign-in (it checks each call all the same). */
type AuthState = { status: 'loading' } | { status: 'anonymous' } | { status: 'authenticated'; user: TUser; permissions: readonly Permission[] };

type AuthContextValue = {
  state: AuthState;
  user: TUser | null;
  isAdmin: boolean;
  /** Whether the user may use a power: the menu, the guards and the buttons ask it. */
  can: (permission: Permission) => boolean;
  login: (input: TLogin) => Promise<TUser>;
  logout: () => Promise<void>;
  /** Replaces the signed-in user's data (after a profile save or a live update). */
  setUser: (user: TUser) => void;
};

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    const off = onSessionEvent({
      refreshed: (session) => setState({ status: 'authenticated', user: session.user, permissions: session.permissions }),
      ended: () => {
        setState({ status: 'anonymous' });
        queryClient.clear();
      },
    });
    void refreshSession().then((session) => {
      if (!session) setState((current) => (current.status === 'loading' ? { status: 'anonymous' } : current));
    });
    return off;
  }, [queryClient]);

  const login = useCallback(async (input: TLogin) => {
    const session = await request<TLoginResponse>('/auth/login', { method: 'POST', body: input, sessionless: true });
    setToken(session.token);
    setState({ status: 'authenticated', user: session.user, permissions: session.permissions });
    return session.user;
  }, []);

  const logout = useCallback(async () => {
    try {
      await requestVoid('/auth/logout', { method: 'DELETE' });
    } catch {
      // The session ends locally whatever the server answered.
    }
    endSessionLocally();
  }, []);

  const setUser = useCallback((user: TUser) => {
    setState((current) => (current.status === 'authenticated' && current.user.id === user.id ? { ...current, user } : current));
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const user = state.status === 'authenticated' ? state.user : null;
    const permissions = new Set(state.status === 'authenticated' ? state.permissions : []);
    return { state, user, isAdmin: user ? isAdminProfile(user.profile) : false, can: (permission) => permissions.has(permission), login, logout, setUser };
  }, [state, login, logout, setUser]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
