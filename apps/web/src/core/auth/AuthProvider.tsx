/**
 * The session: restored from the refresh cookie at start (only where an access token is stored,
 * i.e. someone signed in on this browser), set by login, ended by logout or by any 401 the API
 * client meets. Pages read it with useAuth().
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { Permission } from '@zapdesk/shared/permissions';
import type { TFailedAttempts, TLoginResponse, TLogin, TUser } from '@zapdesk/shared/schemas';
import type { TLoginAnswer } from '@zapdesk/shared/two-factor';
import { onSessionEvent, refreshSession, request, signOut } from '../api/client';
import { setToken } from '../api/tokenStore';

type AuthState =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'authenticated'; user: TUser; passwordChangeRequired: boolean; failedAttempts: TFailedAttempts | null; permissions: readonly Permission[] };

type AuthContextValue = {
  state: AuthState;
  user: TUser | null;
  isAdmin: boolean;
  /** Whether the user may use a power: the menu, the guards and the buttons ask it. */
  can: (permission: Permission) => boolean;
  /** The password step: signed in, or a challenge when a second factor (or its set-up) is owed. */
  login: (input: TLogin) => Promise<TLoginAnswer>;
  /** Signs in with a session the second-factor step obtained. */
  startSession: (session: TLoginResponse) => void;
  logout: () => Promise<void>;
  /** Replaces the signed-in user's data (after a profile save or a live update). */
  setUser: (user: TUser) => void;
  /** The password is below today's policy: the app asks for a new one until it is changed. */
  passwordChangeRequired: boolean;
  /** Failed attempts at the account since the last sign-in, told once after signing in. */
  failedAttempts: TFailedAttempts | null;
  dismissFailedAttempts: () => void;
};

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    const off = onSessionEvent({
      refreshed: (session) =>
        setState((current) => ({
          status: 'authenticated',
          user: session.user,
          passwordChangeRequired: session.passwordChangeRequired,
          permissions: session.permissions,
          failedAttempts: current.status === 'authenticated' && current.user.id === session.user.id ? current.failedAttempts : null,
        })),
      ended: () => {
        setState({ status: 'anonymous' });
        queryClient.clear();
      },
    });
    // Nobody signed in on this browser (no access token stored: never signed in, or signed out):
    // refreshSession does not ask (a 401 in the console of the login page) and answers null.
    void refreshSession().then((session) => {
      if (!session) setState((current) => (current.status === 'loading' ? { status: 'anonymous' } : current));
    });
    return off;
  }, [queryClient]);

  const startSession = useCallback((session: TLoginResponse) => {
    setToken(session.token);
    setState({ status: 'authenticated', user: session.user, passwordChangeRequired: session.passwordChangeRequired, failedAttempts: session.failedAttempts ?? null, permissions: session.permissions });
  }, []);

  const login = useCallback(
    async (input: TLogin) => {
      const answer = await request<TLoginAnswer>('/auth/login', { method: 'POST', body: input, sessionless: true });
      if ('token' in answer) startSession(answer);
      return answer;
    },
    [startSession],
  );

  const logout = useCallback(() => signOut(), []);

  const setUser = useCallback((user: TUser) => {
    setState((current) => (current.status === 'authenticated' && current.user.id === user.id ? { ...current, user } : current));
  }, []);

  const dismissFailedAttempts = useCallback(() => {
    setState((current) => (current.status === 'authenticated' ? { ...current, failedAttempts: null } : current));
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const signedIn = state.status === 'authenticated' ? state : null;
    const user = signedIn?.user ?? null;
    const permissions = new Set(signedIn?.permissions ?? []);
    return {
      state,
      user,
      isAdmin: user ? isAdminProfile(user.profile) : false,
      can: (permission: Permission) => permissions.has(permission),
      login,
      startSession,
      logout,
      setUser,
      passwordChangeRequired: signedIn?.passwordChangeRequired ?? false,
      failedAttempts: signedIn?.failedAttempts ?? null,
      dismissFailedAttempts,
    };
  }, [state, login, startSession, logout, setUser, dismissFailedAttempts]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
