/**
 * The realtime gateway over a real port and real sockets: who may connect, and the exact set of
 * recipients of each event.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import { MASKED_VALUE } from '@zapdesk/shared/domain';
import { createTestApp, type TestApp } from '../test/harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Client = { socket: ClientSocket; received: { event: string; payload: unknown }[] };

let t: TestApp;
let url: string;
/** Two plain users whose sessions the tests never end. */
let alice: { id: number; email: string; token: string };
let bob: { id: number; email: string; token: string };
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
  const a = await t.createUser({ name: 'Alice Agent' });
  const b = await t.createUser({ name: 'Bob Agent' });
  alice = { id: a.user.id, email: a.user.email, token: a.token };
  bob = { id: b.user.id, email: b.user.email, token: b.token };
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t.close();
});

function openSocket(token: string | undefined): ClientSocket {
  const socket: ClientSocket = connectSocket(url, {
    path: '/socket.io',
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return socket;
}

/** A connected socket that records every event it receives. */
async function connect(token: string): Promise<Client> {
  const socket = openSocket(token);
  const received: Client['received'] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

/** The message of the handshake refusal. */
async function refusal(token: string | undefined): Promise<string> {
  const socket = openSocket(token);
  return new Promise<string>((resolve, reject) => {
    socket.once('connect_error', (error) => resolve(error.message));
    socket.once('connect', () => reject(new Error('the socket connected')));
  });
}

function eventsNamed(client: Client, event: string): unknown[] {
  return client.received.filter((r) => r.event === event).map((r) => r.payload);
}

/** Waits until `client` has received `event` with a payload matching `payload`. */
async function expectEvent(client: Client, event: string, payload: unknown): Promise<void> {
  await vi.waitFor(() => expect(eventsNamed(client, event)).toContainEqual(payload), { timeout: 3000, interval: 20 });
}

/**
 * Events reach a socket in the order the server sent them. A quick answer, which goes to
 * everyone, sent after the event under test and seen by each client, proves that an event
 * absent at that point was never sent to that client. A short extra wait covers a broken order.
 */
async function fence(clients: Client[]): Promise<void> {
  const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: t.adminToken, payload: { shortcut: 'fence', message: `fence ${Math.random()}` } });
  expect(res.statusCode).toBe(201);
  const { id } = res.json();
  for (const client of clients) await expectEvent(client, 'quickAnswer', { action: 'create', quickAnswer: expect.objectContaining({ id }) });
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('handshake', () => {
  it.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['a garbage token', 'not-a-jwt'],
  ])('refuses %s with ERR_INVALID_TOKEN', async (_label, token) => {
    expect(await refusal(token)).toBe('ERR_INVALID_TOKEN');
  });

  it('refuses an expired token with ERR_SESSION_EXPIRED, so the client refreshes', async () => {
    const { access } = await t.expiredTokens(alice.id);
    expect(await refusal(access)).toBe('ERR_SESSION_EXPIRED');
  });

  it('refuses the token of an ended session as expired, so the client tries its refresh cookie', async () => {
    const { token } = await t.createUser();
    expect((await t.request({ method: 'DELETE', url: '/api/auth/logout', token })).statusCode).toBe(204);
    expect(await refusal(token)).toBe('ERR_SESSION_EXPIRED');
  });

  it('accepts a valid token', async () => {
    const client = await connect(alice.token);
    expect(client.socket.connected).toBe(true);
  });
});

describe('recipients', () => {
  it('sends queue events to everyone: admins and plain users', async () => {
    const [admin, a, b] = await Promise.all([connect(t.adminToken), connect(alice.token), connect(bob.token)]);
    const queue = await t.createQueue({ name: 'Broadcast queue' });
    for (const client of [admin, a, b]) await expectEvent(client, 'queue', { action: 'create', queue });

    expect((await t.request({ method: 'DELETE', url: `/api/queue/${queue.id}`, token: t.adminToken })).statusCode).toBe(204);
    for (const client of [admin, a, b]) await expectEvent(client, 'queue', { action: 'delete', queueId: queue.id });
  });

  it('sends settings events to admins only', async () => {
    const [admin, a] = await Promise.all([connect(t.adminToken), connect(alice.token)]);
    expect((await t.request({ method: 'PUT', url: '/api/settings/typebotName', token: t.adminToken, payload: { value: 'Admin eyes only' } })).statusCode).toBe(200);
    await expectEvent(admin, 'settings', { action: 'update', setting: expect.objectContaining({ key: 'typebotName', value: 'Admin eyes only' }) });
    await fence([admin, a]);
    expect(eventsNamed(a, 'settings')).toEqual([]);
  });

  it('masks secret settings in events too', async () => {
    const admin = await connect(t.adminToken);
    expect((await t.request({ method: 'PUT', url: '/api/settings/emailPass', token: t.adminToken, payload: { value: 'mail-password-123' } })).statusCode).toBe(200);
    await expectEvent(admin, 'settings', { action: 'update', setting: expect.objectContaining({ key: 'emailPass', value: MASKED_VALUE, isSet: true }) });
    expect(JSON.stringify(admin.received)).not.toContain('mail-password-123');
  });

  it('sends a user update to admins and to that user, not to other users', async () => {
    const [admin, a, b] = await Promise.all([connect(t.adminToken), connect(alice.token), connect(bob.token)]);
    const res = await t.request({ method: 'PUT', url: `/api/users/${alice.id}`, token: t.adminToken, payload: { name: 'Alice Renamed', email: alice.email } });
    expect(res.statusCode).toBe(200);
    const expected = { action: 'update', user: expect.objectContaining({ id: alice.id, name: 'Alice Renamed' }) };
    await expectEvent(admin, 'user', expected);
    await expectEvent(a, 'user', expected);
    await fence([admin, a, b]);
    expect(eventsNamed(b, 'user')).toEqual([]);
  });

  it("sends a campaign's progress to admins and its author, not to other users; a token's send to admins only", async () => {
    const phone = await t.insertWhatsapp({ name: `Bulk ${Date.now()}` });
    const [admin, a, b] = await Promise.all([connect(t.adminToken), connect(alice.token), connect(bob.token)]);
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: alice.token,
      payload: { kind: 'text', whatsappId: phone.id, numbers: '447700900123', message: 'Oi', minDelay: 0, maxDelay: 0 },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ campaign: { id: number } }>().campaign.id;
    const expected = { action: 'update', campaign: expect.objectContaining({ id, userId: alice.id }) };
    await expectEvent(admin, 'campaign', expected);
    await expectEvent(a, 'campaign', expected);

    const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
    const token = settings.find((x) => x.key === 'userApiToken')?.value ?? '';
    const viaToken = await t.request({ method: 'POST', url: '/api/zdg', payload: { token, number: '447700900124', message: 'Oi', ticketwhatsappId: phone.id } });
    expect(viaToken.statusCode).toBe(202);
    await expectEvent(admin, 'campaign', { action: 'update', campaign: expect.objectContaining({ id: viaToken.json<{ id: number }>().id, userId: null }) });
    await fence([admin, a, b]);
    expect(eventsNamed(b, 'campaign')).toEqual([]);
    expect(eventsNamed(a, 'campaign').every((p) => (p as { campaign: { userId: number } }).campaign.userId === alice.id)).toBe(true);
  });

  it('sends a user creation and deletion to admins only', async () => {
    const [admin, a] = await Promise.all([connect(t.adminToken), connect(alice.token)]);
    const created = await t.request({ method: 'POST', url: '/api/users', token: t.adminToken, payload: { name: 'Short Lived', email: 'short.lived@test.local', password: 'pass-1234' } });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    await expectEvent(admin, 'user', { action: 'create', user: expect.objectContaining({ id }) });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${id}`, token: t.adminToken })).statusCode).toBe(204);
    await expectEvent(admin, 'user', { action: 'delete', userId: id });
    await fence([admin, a]);
    expect(eventsNamed(a, 'user')).toEqual([]);
  });

  it('sends contact and quick answer events to everyone', async () => {
    const [admin, a, b] = await Promise.all([connect(t.adminToken), connect(alice.token), connect(bob.token)]);
    const contact = await t.createContact({ name: 'Broadcast Contact' });
    for (const client of [admin, a, b]) await expectEvent(client, 'contact', { action: 'create', contact });

    const qa = await t.request({ method: 'POST', url: '/api/quickAnswers', token: alice.token, payload: { shortcut: 'bye', message: 'Goodbye and thanks!' } });
    const { id } = qa.json();
    expect((await t.request({ method: 'DELETE', url: `/api/quickAnswers/${id}`, token: bob.token })).statusCode).toBe(204);
    for (const client of [admin, a, b]) await expectEvent(client, 'quickAnswer', { action: 'delete', quickAnswerId: id });
  });
});

describe('sessions and rights follow the user', () => {
  function disconnected(client: Client): Promise<string> {
    return new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
  }

  it("disconnects the user's sockets on logout, and only theirs", async () => {
    const { token } = await t.createUser();
    const [leaving, other] = await Promise.all([connect(token), connect(alice.token)]);
    const gone = disconnected(leaving);
    expect((await t.request({ method: 'DELETE', url: '/api/auth/logout', token })).statusCode).toBe(204);
    expect(await gone).toBe('io server disconnect');
    await fence([other]);
    expect(other.socket.connected).toBe(true);
  });

  it("disconnects the user's sockets on a password change and on deletion", async () => {
    const changed = await t.createUser();
    const deleted = await t.createUser();
    const [c, d] = await Promise.all([connect(changed.token), connect(deleted.token)]);
    const cGone = disconnected(c);
    const dGone = disconnected(d);
    const put = await t.request({
      method: 'PUT',
      url: `/api/users/${changed.user.id}`,
      token: t.adminToken,
      payload: { name: changed.user.name, email: changed.user.email, password: 'another-pass' },
    });
    expect(put.statusCode).toBe(200);
    expect(await cGone).toBe('io server disconnect');
    expect((await t.request({ method: 'DELETE', url: `/api/users/${deleted.user.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect(await dGone).toBe('io server disconnect');
  });

  it("makes a promoted user's open socket receive settings events, and a demoted one stop", async () => {
    const { user, token } = await t.createUser();
    const [admin, promoted] = await Promise.all([connect(t.adminToken), connect(token)]);
    const setTypebotUrl = async (value: string) => {
      expect((await t.request({ method: 'PUT', url: '/api/settings/typebotUrl', token: t.adminToken, payload: { value } })).statusCode).toBe(200);
      await expectEvent(admin, 'settings', { action: 'update', setting: expect.objectContaining({ key: 'typebotUrl', value }) });
    };

    await setTypebotUrl('https://before.example');
    await fence([admin, promoted]);
    expect(eventsNamed(promoted, 'settings')).toEqual([]);

    const promote = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: t.adminToken, payload: { name: user.name, email: user.email, profile: 'admin' } });
    expect(promote.statusCode).toBe(200);
    await setTypebotUrl('https://promoted.example');
    await expectEvent(promoted, 'settings', { action: 'update', setting: expect.objectContaining({ key: 'typebotUrl', value: 'https://promoted.example' }) });

    const demote = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: t.adminToken, payload: { name: user.name, email: user.email, profile: 'user' } });
    expect(demote.statusCode).toBe(200);
    await setTypebotUrl('https://demoted.example');
    await fence([admin, promoted]);
    expect(eventsNamed(promoted, 'settings')).toHaveLength(1);
  });
});
