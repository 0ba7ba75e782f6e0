/**
 * whaticket's screens as sockets, for the contract tests: each screen opens its own socket to
 * `<origin>/api` with the token in the query and sends its join without acknowledgement, as
 * whaticket's frontend (services/socket-io.js) does.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { expect, vi } from 'vitest';
import type { TestApp } from './harness.js';

export type Received = { event: string; payload: unknown };
export type Client = { socket: Socket; received: Received[]; mark: number };
export type Join = ['joinTickets', string] | ['joinNotification'] | ['joinChatBox', string];

export function whaticketScreens(app: () => { t: TestApp; url: string }) {
  const all: Client[] = [];

  function open(token: unknown, transports: string[] = ['websocket', 'polling']): Socket {
    // whaticket: openSocket(getBackendUrl(), { transports, query: { token: JSON.parse(localStorage.token) } }).
    return connectSocket(`${app().url}/api`, { transports, query: { token: token as string }, reconnection: false, forceNew: true });
  }

  /** Records what a socket hears, from now on. */
  function record(socket: Socket): Client {
    const client: Client = { socket, received: [], mark: 0 };
    all.push(client);
    socket.onAny((event: string, payload: unknown) => client.received.push({ event, payload }));
    return client;
  }

  /** A whaticket screen's socket: connected, its join sent without acknowledgement, and seen applied by the server. */
  async function screen(token: string, join?: Join, transports?: string[]): Promise<Client> {
    const socket = open(token, transports);
    const client = record(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    if (join) {
      socket.emit(join[0], ...join.slice(1));
      const topic = join[0] === 'joinTickets' ? `status:${join[1]}` : join[0] === 'joinNotification' ? 'notification' : `chat:${join[1]}`;
      await vi.waitFor(
        async () => {
          const server = (await app().t.io.of('/api').fetchSockets()).find((s) => s.id === socket.id);
          expect([...(server?.rooms ?? [])].some((room) => room.startsWith(`${topic}@`))).toBe(true);
        },
        { timeout: 3000, interval: 20 },
      );
    }
    return client;
  }

  /** The refusal a whaticket client gets at the handshake. */
  async function refusal(token: unknown, transports?: string[]): Promise<string> {
    const socket = open(token, transports);
    return new Promise<string>((resolve, reject) => {
      socket.once('connect_error', (error) => {
        socket.close();
        resolve(error.message);
      });
      socket.once('connect', () => reject(new Error('the socket connected')));
    });
  }

  /** The payloads of `event` a screen heard since its mark. */
  const named = (client: Client, event: string) =>
    client.received
      .slice(client.mark)
      .filter((r) => r.event === event)
      .map((r) => r.payload);

  /** A quick answer reaches every screen after the events under test: an event absent by then was never sent to that screen. */
  async function fence(): Promise<void> {
    const { t } = app();
    const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: t.adminToken, payload: { shortcut: 'fence', message: `fence ${Math.random()}` } });
    const { id } = res.json<{ id: number }>();
    const quickAnswer: unknown = expect.objectContaining({ id });
    for (const client of all) await vi.waitFor(() => expect(named(client, 'quickAnswer')).toContainEqual({ action: 'create', quickAnswer }), { timeout: 3000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  /** An API call that must succeed. */
  async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, token: string, payload?: object): Promise<unknown> {
    const res = await app().t.request({ method, url: `/api${path}`, token, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  }

  const closeAll = () => {
    for (const client of all.splice(0)) client.socket.close();
  };

  return { all, open, record, screen, refusal, named, fence, api, closeAll };
}
