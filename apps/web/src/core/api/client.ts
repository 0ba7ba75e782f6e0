/**
 * The one API client. It sends the bearer token and the cookies, refreshes the session once and
 * retries once when the access token expired (403 ERR_SESSION_EXPIRED), and ends the session
 * locally on a 401.
 *
 * Answers are typed by the shared schemas but not parsed again here: the server checks every
 * answer against the same schema before sending it (its serializer compiler), and leaving the
 * schemas out keeps zod out of the first screen's JavaScript. Forms still validate with zod.
 */
import type { ErrorCode } from '@zapdesk/shared/errors';
import type { TLoginResponse } from '@zapdesk/shared/schemas';
import { ApiError } from './ApiError';
import { getToken, setToken } from './tokenStore';

const API_BASE = '/api';

type SessionListener = { refreshed?: (session: TLoginResponse) => void; ended?: () => void };
const sessionListeners = new Set<SessionListener>();

/** AuthProvider listens here: a refresh brings fresh user data, a 401 ends the session. */
export function onSessionEvent(listener: SessionListener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

export function endSessionLocally(): void {
  setToken(null);
  for (const listener of sessionListeners) listener.ended?.();
}

type Query = Record<string, string | number | boolean | undefined>;

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Query;
  /** Login, signup and refresh answer 401 for their own reasons: they must not end the session. */
  sessionless?: boolean;
};

function buildUrl(path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers = new Headers();
  const token = getToken();
  if (token && !options.sessionless) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
  });
}

/** 401s that say what was typed is wrong, not that the session is over. */
const WRONG_ANSWERS = new Set<ErrorCode | undefined>(['ERR_INVALID_CREDENTIALS', 'ERR_TWO_FACTOR_CODE_INVALID', 'ERR_TWO_FACTOR_CODE_USED']);

let refreshInFlight: Promise<TLoginResponse | null> | null = null;
let rotationInFlight: Promise<unknown> | null = null;
/** A sign-out is under way: the server ends the session (and drops the socket) before it answers. */
let signingOut = false;
const LOGOUT_PATH = '/auth/logout';

/**
 * Signs out: the server ends every session of the user, then this tab forgets its token. While
 * the call runs, nothing asks for a refresh (the socket the server drops would, and get a 401).
 */
export async function signOut(): Promise<void> {
  signingOut = true;
  try {
    await requestRaw(LOGOUT_PATH, { method: 'DELETE' });
  } catch {
    // The session ends locally whatever the server answered.
  } finally {
    signingOut = false;
    endSessionLocally();
  }
}

/**
 * Runs a call that rotates the refresh cookie (changing one's own password). The server drops
 * this user's sockets while the call is still answering; a refresh started meanwhile waits for
 * the new cookie instead of presenting the revoked one and ending the session.
 */
export async function withSessionRotation<T>(work: () => Promise<T>): Promise<T> {
  // The call itself must not need a refresh: a refresh waits for the rotation, which would wait
  // for the refresh. A fresh access token first.
  await refreshSession();
  const running = work();
  const settled = running.then(
    () => undefined,
    () => undefined,
  );
  rotationInFlight = settled;
  try {
    return await running;
  } finally {
    if (rotationInFlight === settled) rotationInFlight = null;
  }
}

/**
 * Exchanges the refresh cookie for a new access token. Concurrent callers share one request.
 * Resolves null (and ends the local session) when there is no valid cookie, or no token stored.
 */
export function refreshSession(): Promise<TLoginResponse | null> {
  // The user is signing out: nothing to restore (the socket the server drops would ask), and
  // asking would only be a 401 in the console.
  if (signingOut) return Promise.resolve(null);
  return refreshNow();
}

/** The refresh itself. The sign-out's own call uses it when it found the access token expired. */
function refreshNow(): Promise<TLoginResponse | null> {
  // Nobody is signed in on this browser (no token stored): nothing to restore.
  if (getToken() === null) {
    endSessionLocally();
    return Promise.resolve(null);
  }
  refreshInFlight ??= (async () => {
    try {
      if (rotationInFlight) await rotationInFlight;
      const response = await send('/auth/refresh_token', { method: 'POST', sessionless: true });
      // 401: no valid refresh cookie (signed out, expired or revoked): no session to restore.
      if (!response.ok) {
        endSessionLocally();
        return null;
      }
      const session = (await response.json()) as TLoginResponse;
      setToken(session.token);
      for (const listener of sessionListeners) listener.refreshed?.(session);
      return session;
    } catch {
      // Network failure: keep the token, the next call may succeed.
      return null;
    } finally {
      refreshInFlight = null;
    }
  })();
  return refreshInFlight;
}

/** Sends a request and returns the raw response once it succeeded (after one refresh-and-retry). */
export async function requestRaw(path: string, options: RequestOptions = {}): Promise<Response> {
  // Signing out: the server may already have ended the session and would answer 403 to a call that
  // needs it (a list or the dashboard refreshing meanwhile), an error in the console for nothing.
  if (signingOut && !options.sessionless && path !== LOGOUT_PATH) throw new ApiError({ status: 401, code: 'ERR_SESSION_EXPIRED', message: 'signing out' });
  let response = await send(path, options);
  if (!options.sessionless && response.status === 403) {
    const error = await ApiError.fromResponse(response.clone());
    if (error.code === 'ERR_SESSION_EXPIRED') {
      // The sign-out refreshes too: a tab left open past its access token's life must still end
      // the session on the server, not only forget it here.
      const session = await (path === LOGOUT_PATH ? refreshNow() : refreshSession());
      if (!session) throw error;
      response = await send(path, options);
    }
  }
  if (response.ok) return response;
  const error = await ApiError.fromResponse(response);
  // A wrong password (changing one's own) or a wrong code (two-step verification) is not a lost session.
  if (response.status === 401 && !options.sessionless && !WRONG_ANSWERS.has(error.code)) endSessionLocally();
  throw error;
}

/** A JSON request; `T` is the answer's shared type (`z.output<typeof ZSomethingSchema>`). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await requestRaw(path, options);
  return (await response.json()) as T;
}

/** A request whose answer has no body (204). */
export async function requestVoid(path: string, options: RequestOptions = {}): Promise<void> {
  await requestRaw(path, options);
}

/**
 * Fetches a file with the bearer token and hands it to the browser as a download named `filename`;
 * `rewrite` turns a text file into the one the person gets (an export in their language).
 */
export async function downloadFile(path: string, filename: string, rewrite?: (text: string) => string): Promise<void> {
  const response = await requestRaw(path);
  const blob = rewrite ? new Blob([rewrite(await response.text())], { type: response.headers.get('content-type') ?? 'text/plain' }) : await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
