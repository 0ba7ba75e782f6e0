/** What the browser tests share for driving the server directly: its API as a signed-in user, and a linked simulated phone. */
import { expect } from 'vitest';
import { z } from 'zod';
import { ADMIN } from './server';

export type Api = (route: string, options?: { method?: string; body?: unknown }) => Promise<Response>;

/** The API at baseUrl with the bearer token token() returns at the time of each call. */
export function apiAs(baseUrl: string, token: () => string): Api {
  return (route, options = {}) =>
    fetch(`${baseUrl}/api${route}`, {
      method: options.method ?? 'GET',
      headers: { authorization: `Bearer ${token()}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
}

const ZSignIn = z.object({ token: z.string().min(1), user: z.object({ id: z.number(), name: z.string() }) });

/** Signs in through the API (the admin unless told otherwise): its access token and user. */
export async function signIn(baseUrl: string, credentials: { email: string; password: string } = ADMIN): Promise<z.infer<typeof ZSignIn>> {
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  expect(response.status).toBe(200);
  return ZSignIn.parse(await response.json());
}

/** The id in a JSON answer, or 0. */
export async function idOf(response: Response): Promise<number> {
  const body: unknown = await response.json();
  return typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'number' ? body.id : 0;
}

/** The session of a new connection starts by itself; the simulated phone scans once it shows a code. */
export async function scanWhenReady(api: Api, connectionId: number): Promise<void> {
  let scanned = 0;
  for (let tries = 0; tries < 40 && scanned !== 200; tries += 1) {
    scanned = (await api(`/simulator/${connectionId}/scan`, { method: 'POST' })).status;
    if (scanned !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(scanned).toBe(200);
}

/** The simulated phone's person reacts to a message by its provider id (an empty emoji takes the reaction away). */
export async function reactOnPhone(api: Api, connectionId: number, reaction: { id: string; from: string; name?: string; emoji: string; fromMe?: boolean }): Promise<void> {
  expect((await api(`/simulator/${connectionId}/reaction`, { method: 'POST', body: reaction })).status).toBe(200);
}

/** The author of a message changes its text on their phone. */
export async function editOnPhone(api: Api, connectionId: number, edit: { id: string; body: string }): Promise<void> {
  expect((await api(`/simulator/${connectionId}/edit`, { method: 'POST', body: edit })).status).toBe(200);
}
