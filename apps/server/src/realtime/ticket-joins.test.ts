/**
 * Joins and the exact recipients of ticket, message and contact events. Every socket below is
 * a real socket.io client on a real port. Cast: an admin; `owner` and `colleague`, agents of
 * queue Sales; `outsider`, agent of queue Support. The connection has the single queue Sales, so
 * every ticket starts pending in Sales.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, JoinResult, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../test/harness.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Client = { name: string; socket: ClientSocket; received: { event: string; payload: unknown }[] };
type Person = { id: number; token: string };

let t: TestApp;
let url: string;
let w: TWhatsapp;
let sales: TQueue;
let support: TQueue;
let owner: Person;
let colleague: Person;
let outsider: Person;
let n = 0;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
  sales = await t.createQueue({ name: 'Sales' });
  support = await t.createQueue({ name: 'Support' });
  const person = async (queueIds: number[]) => t.createUser({ queueIds }).then((u) => ({ id: u.user.id, token: u.token }));
  owner = await person([sales.id]);
  colleague = await person([sales.id]);
  outsider = await person([support.id]);
  w = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator', queueIds: [sales.id] } })).json();
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(name: string, token: string): Promise<Client> {
  const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const received: Client['received'] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { name, socket, received };
}

/** What the web app joins: the notification room and every status list. */
async function joinLikeTheWebApp(client: Client): Promise<void> {
  expect(await client.socket.emitWithAck('joinNotification')).toEqual({ ok: true });
  for (const status of ['pending', 'open', 'closed']) expect(await client.socket.emitWithAck('joinTickets', status)).toEqual({ ok: true });
}

/** Everyone, as the web app connects. */
async function cast(): Promise<Record<'admin' | 'owner' | 'colleague' | 'outsider', Client>> {
  const clients = {
    admin: await connect('admin', t.adminToken),
    owner: await connect('owner', owner.token),
    colleague: await connect('colleague', colleague.token),
    outsider: await connect('outsider', outsider.token),
  };
  for (const c of Object.values(clients)) await joinLikeTheWebApp(c);
  return clients;
}

/**
 * After a quick answer (which goes to every socket) has reached every client, any event sent
 * before it has arrived too: what a client lacks then, it was never sent.
 */
async function fence(clients: Client[]): Promise<void> {
  const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: t.adminToken, payload: { shortcut: `f${Math.random()}`.slice(0, 20), message: `fence ${Math.random()}` } });
  const { id } = res.json<{ id: number }>();
  await vi.waitFor(
    () => {
      for (const c of clients) expect(c.received.some((r) => r.event === 'quickAnswer' && JSON.stringify(r.payload).includes(`"id":${id}`))).toBe(true);
    },
    { timeout: 4000, interval: 20 },
  );
}

/**
 * The names of the clients that received `event` with a payload containing `marker`. Inbound
 * messages are handled after the simulator's HTTP answer: the first delivery is awaited (every
 * set asserted here has one member at least), then the fence.
 */
async function recipients(clients: Client[], event: string, marker: string): Promise<string[]> {
  const got = (c: Client) => c.received.some((r) => r.event === event && JSON.stringify(r.payload).includes(marker));
  await vi.waitFor(() => expect(clients.some(got)).toBe(true), { timeout: 4000, interval: 20 });
  await fence(clients);
  return clients
    .filter((c) => c.received.some((r) => r.event === event && JSON.stringify(r.payload).includes(marker)))
    .map((c) => c.name)
    .sort();
}

async function contactWrites(body: string): Promise<TTicket> {
  n += 1;
  const from = `55119555${String(n).padStart(5, '0')}`;
  await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from, body } });
  let ticket: TTicket | undefined;
  await vi.waitFor(
    async () => {
      ticket = ((await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets as TTicket[]).find(
        (x) => x.contact.number === from && x.queueId === sales.id,
      );
      expect(ticket).toBeDefined();
    },
    { timeout: 5000, interval: 25 },
  );
  if (!ticket) throw new Error('no ticket');
  return ticket;
}

const reply = (ticketId: number, body: string, token: string) => t.request({ method: 'POST', url: `/api/messages/${ticketId}`, token, payload: { body } });

describe('joins', () => {
  it('admits joinChatBox only for a ticket the user may see, and refuses bad statuses and ids', async () => {
    const ticket = await contactWrites('join check');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: owner.token, payload: { status: 'open' } });
    const clients = await cast();
    const join = (c: Client, id: string | number): Promise<JoinResult> => c.socket.emitWithAck('joinChatBox', id);
    expect(await join(clients.admin, ticket.id)).toEqual({ ok: true });
    expect(await join(clients.owner, String(ticket.id))).toEqual({ ok: true });
    // Showing all is for admins: a colleague of the queue may not see another agent's ticket.
    // To them it is a ticket that does not exist.
    expect(await join(clients.colleague, ticket.id)).toEqual({ ok: false, error: 'ERR_NO_TICKET_FOUND' });
    expect(await join(clients.outsider, ticket.id)).toEqual({ ok: false, error: 'ERR_NO_TICKET_FOUND' });
    expect(await join(clients.admin, 999999)).toEqual({ ok: false, error: 'ERR_NO_TICKET_FOUND' });
    expect(await join(clients.admin, 'abc')).toEqual({ ok: false, error: 'ERR_VALIDATION' });
    expect(await clients.admin.socket.emitWithAck('joinTickets', 'archived')).toEqual({ ok: false, error: 'ERR_VALIDATION' });
  });

  it('sends ticket and message events only to sockets that joined something carrying them', async () => {
    const ticket = await contactWrites('before joins');
    const [notifications, openList, pendingList, chat, nothing] = [
      await connect('notifications', colleague.token),
      await connect('open list', colleague.token),
      await connect('pending list', colleague.token),
      await connect('chat', colleague.token),
      await connect('nothing', colleague.token),
    ];
    await notifications.socket.emitWithAck('joinNotification');
    await openList.socket.emitWithAck('joinTickets', 'open');
    await pendingList.socket.emitWithAck('joinTickets', 'pending');
    expect(await chat.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    const all = [notifications, openList, pendingList, chat, nothing];

    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, body: 'pending news' } });
    expect(await recipients(all, 'appMessage', 'pending news')).toEqual(['chat', 'notifications', 'pending list']);

    // Another ticket's chat was not joined.
    await contactWrites('someone else');
    expect(await recipients(all, 'appMessage', 'someone else')).toEqual(['notifications', 'pending list']);

    // Accepting moves the ticket from pending to open: both lists hear of it.
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: colleague.token, payload: { status: 'open' } });
    await fence(all);
    const updates = (c: Client) => c.received.filter((r) => r.event === 'ticket' && JSON.stringify(r.payload).includes(`"status":"open"`) && JSON.stringify(r.payload).includes(`"id":${ticket.id},`));
    expect(
      all
        .filter((c) => updates(c).length > 0)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['chat', 'notifications', 'open list', 'pending list']);
    expect(nothing.received.filter((r) => r.event === 'ticket' || r.event === 'appMessage')).toEqual([]);

    // Leaving the chat ends its events for that socket.
    chat.socket.emit('leaveChatBox', ticket.id);
    await reply(ticket.id, 'after leaving', colleague.token);
    expect(await recipients(all, 'appMessage', 'after leaving')).toEqual(['notifications', 'open list']);
  });
});

describe('recipients after the web app joins', () => {
  it('a pending ticket of a queue: admins and the agents of that queue', async () => {
    const clients = await cast();
    await contactWrites('queued hello');
    expect(await recipients(Object.values(clients), 'appMessage', 'queued hello')).toEqual(['admin', 'colleague', 'owner']);
    expect(await recipients(Object.values(clients), 'ticket', 'queued hello')).toEqual(['admin', 'colleague', 'owner']);
  });

  it('an assigned ticket: admins and its owner only; the queue hears the accept so its lists drop it', async () => {
    const ticket = await contactWrites('to be accepted');
    const clients = await cast();
    const all = Object.values(clients);
    const res = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: owner.token, payload: { status: 'open' } });
    expect(res.json()).toMatchObject({ userId: owner.id });
    await fence(all);
    const accepted = (c: Client) =>
      c.received.some((r) => r.event === 'ticket' && JSON.stringify(r.payload).includes(`"userId":${owner.id}`) && JSON.stringify(r.payload).includes(`"id":${ticket.id},`));
    expect(
      all
        .filter(accepted)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['admin', 'colleague', 'owner']);

    await reply(ticket.id, 'owner speaking', owner.token);
    expect(await recipients(all, 'appMessage', 'owner speaking')).toEqual(['admin', 'owner']);
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, body: 'customer to owner' } });
    expect(await recipients(all, 'appMessage', 'customer to owner')).toEqual(['admin', 'owner']);
    expect(await recipients(all, 'ticket', 'customer to owner')).toEqual(['admin', 'owner']);
  });

  it('follows a transfer: the new queue hears the ticket, the former owner stops, even in a joined chat', async () => {
    const ticket = await contactWrites('transfer me');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: owner.token, payload: { status: 'open' } });
    const clients = await cast();
    const all = Object.values(clients);
    expect(await clients.owner.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: owner.token, payload: { queueId: support.id, userId: null } });
    await fence(all);
    const moved = (c: Client) =>
      c.received.some((r) => r.event === 'ticket' && JSON.stringify(r.payload).includes(`"queueId":${support.id}`) && JSON.stringify(r.payload).includes(`"id":${ticket.id},`));
    // The former audience (admins, owner) and the new one (admins, Support) hear the transfer.
    expect(
      all
        .filter(moved)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['admin', 'outsider', 'owner']);
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, body: 'now in support' } });
    expect(await recipients(all, 'appMessage', 'now in support')).toEqual(['admin', 'outsider']);
  });

  it("matches the API's rule for an owner outside the ticket's queue: their own ticket never vanishes, by the API or live", async () => {
    const ticket = await contactWrites('owner elsewhere');
    const clients = await cast();
    const all = Object.values(clients);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { userId: outsider.id, queueId: sales.id } });
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: outsider.token })).json()).toMatchObject({ id: ticket.id, userId: outsider.id });
    expect(await clients.outsider.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/inbound`, token: t.adminToken, payload: { from: ticket.contact.number, body: 'the owner and admins' } });
    expect(await recipients(all, 'appMessage', 'the owner and admins')).toEqual(['admin', 'outsider']);
  });

  it("re-evaluates a user's sockets when their queues change", async () => {
    const clients = await cast();
    const all = Object.values(clients);
    const { name, email } = (await t.request({ method: 'GET', url: `/api/users/${outsider.id}`, token: t.adminToken })).json<{ name: string; email: string }>();
    const setQueues = async (queueIds: number[]) =>
      expect((await t.request({ method: 'PUT', url: `/api/users/${outsider.id}`, token: t.adminToken, payload: { name, email, queueIds } })).statusCode).toBe(200);
    await setQueues([support.id, sales.id]);
    // The user event comes once the sockets' rooms are rebuilt.
    await vi.waitFor(() => expect(clients.outsider.received.filter((r) => r.event === 'user')).toHaveLength(1));
    await contactWrites('now outsider sees sales');
    expect(await recipients(all, 'appMessage', 'now outsider sees sales')).toEqual(['admin', 'colleague', 'outsider', 'owner']);
    await setQueues([support.id]);
    await vi.waitFor(() => expect(clients.outsider.received.filter((r) => r.event === 'user')).toHaveLength(2));
    await contactWrites('sales only again');
    expect(await recipients(all, 'appMessage', 'sales only again')).toEqual(['admin', 'colleague', 'owner']);
  });

  it('a contact update goes to every signed-in user: contacts are shared by the team', async () => {
    const clients = await cast();
    const contact = await t.createContact({ name: 'Shared Contact' });
    await t.request({ method: 'PUT', url: `/api/contacts/${contact.id}`, token: t.adminToken, payload: { name: 'Shared Contact Renamed', number: contact.number, email: '' } });
    expect(await recipients(Object.values(clients), 'contact', 'Shared Contact Renamed')).toEqual(['admin', 'colleague', 'outsider', 'owner']);
  });
});
