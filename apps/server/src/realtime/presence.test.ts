/** Who is online: a user with a realtime socket connected, through GET /users/online, over a real port. */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TOnlineUsers } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../test/harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let t: TestApp;
let url: string;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
});
afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await t.close();
});

async function connect(token: string): Promise<ClientSocket> {
  const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

async function online(token: string): Promise<number[]> {
  const res = await t.request({ method: 'GET', url: '/api/users/online', token });
  expect(res.statusCode).toBe(200);
  return res.json<TOnlineUsers>().userIds;
}

describe('GET /users/online', () => {
  it('lists a user while a socket of theirs is connected, once however many, and no longer after they all disconnect', async () => {
    const ana = await t.createUser({ name: 'Ana Online' });
    const bia = await t.createUser({ name: 'Bia Offline' });
    // Signed in (a token) is not online: no socket yet.
    expect(await online(bia.token)).toEqual([]);

    const first = await connect(ana.token);
    const second = await connect(ana.token);
    expect(await online(bia.token)).toEqual([ana.user.id]);

    first.close();
    await vi.waitFor(async () => expect(await online(bia.token)).toEqual([ana.user.id]), { timeout: 3000, interval: 20 });
    second.close();
    await vi.waitFor(async () => expect(await online(bia.token)).toEqual([]), { timeout: 3000, interval: 20 });
  });

  it('follows a session ended by the server: revoked sessions drop their sockets', async () => {
    const caio = await t.createUser({ name: 'Caio Removido' });
    await connect(caio.token);
    expect(await online(t.adminToken)).toContain(caio.user.id);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${caio.user.id}`, token: t.adminToken })).statusCode).toBe(204);
    await vi.waitFor(async () => expect(await online(t.adminToken)).not.toContain(caio.user.id), { timeout: 3000, interval: 20 });
  });
});
