/**
 * whaticket's frontend over socket.io, as it connects: `io('<origin>/api', { query: { token } })`,
 * one socket per screen, joins without acknowledgement (`joinTickets(status)`,
 * `joinNotification`, `joinChatBox('<id>')`). The table below is the contract: an action done
 * through the API → the event, its action and payload keys, and which of whaticket's screens
 * (status tabs, the bell, an open chat, any page) hear it and which do not. Real sockets
 * (socket.io-client 4 speaks whaticket's client 3 protocol), real database (both, by project).
 */
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TQueue, TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../test/harness.js';
import { whaticketScreens, type Client } from '../test/whaticket-screens.js';

let t: TestApp;
let url: string;
let q1: TQueue;
let q2: TQueue;
let line: TWhatsapp;
let agentA: { id: number; token: string };
let agentB: { id: number; token: string };
const CUSTOMER = '5511987650101';
const state: { ticket?: TTicket; contactId?: number; userId?: number; queueId?: number; quickAnswerId?: number } = {};
const c: Record<string, Client> = {};
const { all, record, screen, named, fence, api, closeAll } = whaticketScreens(() => ({ t, url }));
/** A screen set up in beforeAll or a row. */
function s(name: string): Client {
  const client = c[name];
  if (!client) throw new Error(`no screen ${name}`);
  return client;
}

async function customerWrites(body: string): Promise<void> {
  await api('POST', `/simulator/${line.id}/inbound`, t.adminToken, { from: CUSTOMER, name: 'Maria Cliente', body });
}

const id = () => state.ticket?.id ?? 0;
const anything = expect.anything();
const ticketWith = (fields: object) => ({ action: 'update', ticket: expect.objectContaining({ id: id(), ...fields }) });
const appMessage = (action: 'create' | 'update', message: object, ticket: object = {}) => ({
  action,
  message: expect.objectContaining({ ticketId: id(), ...message }),
  ticket: expect.objectContaining({ id: id(), ...ticket }),
  contact: expect.objectContaining({ number: CUSTOMER }),
});

/**
 * The table. `hears`: [screen, event, payload] each screen must receive; `silent`: [screen, event, action?]
 * it must not (an action given: only that action). Screens: a = agent of queue Q1, b = agent of
 * queue Q2, admin; Pending/Open/Closed = the status tabs (`joinTickets`), Bell = `joinNotification`
 * (the bell and the search tab), Chat = `joinChatBox`, Page = no join (users, queues, contacts...).
 * `zPending` is our own app's pending list on the main namespace: it keeps our form.
 */
type Row = { action: string; run: () => Promise<void>; hears: () => [string, string, unknown][]; silent?: () => [string, string, string?][] };
const ROWS: Row[] = [
  {
    action: 'a customer writes (new ticket of Q1, pending)',
    run: async () => {
      await customerWrites('I need help');
      const list = await vi.waitFor(async () => {
        const found = ((await api('GET', `/tickets?showAll=true&searchParam=${CUSTOMER}`, t.adminToken)) as { tickets: TTicket[] }).tickets;
        expect(found).toHaveLength(1);
        return found;
      });
      state.ticket = list[0];
      expect(state.ticket?.queueId).toBe(q1.id);
    },
    hears: () => [
      ['aPending', 'appMessage', appMessage('create', { body: 'I need help', fromMe: false, read: false }, { status: 'pending', queueId: q1.id, userId: null })],
      ['aBell', 'appMessage', appMessage('create', { body: 'I need help' })],
      ['aPending', 'ticket', ticketWith({ status: 'pending' })],
    ],
    silent: () => [
      ['bPending', 'appMessage'],
      ['bBell', 'appMessage'],
      ['bPending', 'ticket'],
      ['aOpen', 'appMessage'],
      ['aOpen', 'ticket', 'update'],
    ],
  },
  {
    action: 'agent A opens the chat (joinChatBox "<id>"), the customer writes again',
    run: async () => {
      c.aChat = await screen(agentA.token, ['joinChatBox', String(id())]);
      // Agent B may not see the ticket: the join is ignored, as the API answers 404.
      c.bChat = await screen(agentB.token);
      c.bChat.socket.emit('joinChatBox', String(id()));
      await customerWrites('Are you there?');
    },
    hears: () => [['aChat', 'appMessage', appMessage('create', { body: 'Are you there?', fromMe: false })]],
    silent: () => [['bChat', 'appMessage']],
  },
  {
    action: 'accept: PUT /tickets/:id {status:"open", userId}',
    run: async () => void (await api('PUT', `/tickets/${id()}`, agentA.token, { status: 'open', userId: agentA.id })),
    hears: () => [
      ['aPending', 'ticket', { action: 'delete', ticketId: id() }],
      ['aOpen', 'ticket', ticketWith({ status: 'open', userId: agentA.id, unreadMessages: 0 })],
      ['aBell', 'ticket', { action: 'updateUnread', ticketId: id() }],
      ['aChat', 'ticket', ticketWith({ status: 'open' })],
      ['zPending', 'ticket', ticketWith({ status: 'open' })],
    ],
    // The tab it left must not get it back; our app's list decides by itself from the update.
    silent: () => [
      ['aPending', 'ticket', 'update'],
      ['zPending', 'ticket', 'delete'],
      ['bOpen', 'ticket'],
    ],
  },
  {
    action: 'reply: POST /messages/:id {body}',
    run: async () => void (await api('POST', `/messages/${id()}`, agentA.token, { body: 'Hello Maria' })),
    hears: () => [
      ['aChat', 'appMessage', appMessage('create', { body: 'Hello Maria', fromMe: true })],
      ['aOpen', 'appMessage', appMessage('create', { body: 'Hello Maria' }, { status: 'open' })],
    ],
    silent: () => [['bOpen', 'appMessage']],
  },
  {
    action: 'the customer writes, the agent reads: GET /messages/:id',
    run: async () => {
      s('aBell').mark = s('aBell').received.length;
      await customerWrites('Thanks');
      await vi.waitFor(() => expect(named(s('aBell'), 'appMessage')).toContainEqual(appMessage('create', { body: 'Thanks', read: false })));
      await api('GET', `/messages/${id()}`, agentA.token);
    },
    hears: () => [
      ['aOpen', 'ticket', { action: 'updateUnread', ticketId: id() }],
      ['aBell', 'ticket', { action: 'updateUnread', ticketId: id() }],
    ],
  },
  {
    action: 'transfer: PUT /tickets/:id {userId: B, queueId: Q2}',
    run: async () => void (await api('PUT', `/tickets/${id()}`, agentA.token, { userId: agentB.id, queueId: q2.id })),
    hears: () => [
      ['aOpen', 'ticket', { action: 'delete', ticketId: id() }],
      ['bOpen', 'ticket', ticketWith({ status: 'open', userId: agentB.id, queueId: q2.id })],
    ],
    silent: () => [['aOpen', 'ticket', 'update']],
  },
  {
    action: 'resolve: PUT /tickets/:id {status:"closed"}',
    run: async () => void (await api('PUT', `/tickets/${id()}`, agentB.token, { status: 'closed' })),
    hears: () => [
      ['bOpen', 'ticket', { action: 'delete', ticketId: id() }],
      ['bClosed', 'ticket', ticketWith({ status: 'closed' })],
    ],
    silent: () => [
      ['bOpen', 'ticket', 'update'],
      ['aClosed', 'ticket'],
    ],
  },
  {
    action: 'delete: DELETE /tickets/:id',
    run: async () => void (await api('DELETE', `/tickets/${id()}`, t.adminToken)),
    hears: () => [
      ['bClosed', 'ticket', { action: 'delete', ticketId: id() }],
      ['bBell', 'ticket', { action: 'delete', ticketId: id() }],
    ],
    silent: () => [['aClosed', 'ticket']],
  },
  {
    action: 'contact: POST, PUT, DELETE /contacts',
    run: async () => {
      state.contactId = ((await api('POST', '/contacts', agentA.token, { name: 'New Person', number: '5511912345678' })) as { id: number }).id;
      await api('PUT', `/contacts/${state.contactId}`, agentA.token, { name: 'Renamed Person', number: '5511912345678' });
      await api('DELETE', `/contacts/${state.contactId}`, t.adminToken);
    },
    hears: () =>
      ['aPage', 'bPage'].flatMap((s): [string, string, unknown][] => [
        [s, 'contact', { action: 'create', contact: expect.objectContaining({ id: state.contactId, name: 'New Person', number: anything }) }],
        [s, 'contact', { action: 'update', contact: expect.objectContaining({ id: state.contactId, name: 'Renamed Person' }) }],
        [s, 'contact', { action: 'delete', contactId: state.contactId }],
      ]),
  },
  {
    action: 'user: POST, PUT, DELETE /users (admins; the user themself)',
    run: async () => {
      state.userId = ((await api('POST', '/users', t.adminToken, { name: 'Carla', email: 'carla@example.com', password: 'Carla-Strong-Pass-1!', profile: 'user', queueIds: [] })) as { id: number }).id;
      await api('PUT', `/users/${agentA.id}`, t.adminToken, { name: 'Agent A renamed', email: 'agent-a@example.com', profile: 'user', queueIds: [q1.id] });
      await api('DELETE', `/users/${state.userId}`, t.adminToken);
    },
    hears: () => [
      ['adminPage', 'user', { action: 'create', user: expect.objectContaining({ id: state.userId, name: 'Carla', profile: 'user', queues: [] }) }],
      ['adminPage', 'user', { action: 'update', user: expect.objectContaining({ id: agentA.id, name: 'Agent A renamed' }) }],
      ['aPage', 'user', { action: 'update', user: expect.objectContaining({ id: agentA.id, name: 'Agent A renamed' }) }],
      ['adminPage', 'user', { action: 'delete', userId: state.userId }],
    ],
    silent: () => [
      ['bPage', 'user'],
      ['aPage', 'user', 'create'],
    ],
  },
  {
    action: 'queue: POST, PUT, DELETE /queue',
    run: async () => {
      state.queueId = ((await api('POST', '/queue', t.adminToken, { name: 'Billing', color: '#123456', greetingMessage: 'Hi' })) as { id: number }).id;
      await api('PUT', `/queue/${state.queueId}`, t.adminToken, { name: 'Billing 2', color: '#654321', greetingMessage: 'Hi' });
      await api('DELETE', `/queue/${state.queueId}`, t.adminToken);
    },
    hears: () => [
      ['aPage', 'queue', { action: 'create', queue: expect.objectContaining({ id: state.queueId, name: 'Billing', color: '#123456', greetingMessage: 'Hi' }) }],
      ['aPage', 'queue', { action: 'update', queue: expect.objectContaining({ id: state.queueId, name: 'Billing 2' }) }],
      ['aPage', 'queue', { action: 'delete', queueId: state.queueId }],
    ],
  },
  {
    action: 'quick answer: POST, PUT, DELETE /quickAnswers',
    run: async () => {
      state.quickAnswerId = ((await api('POST', '/quickAnswers', agentA.token, { shortcut: 'hi', message: 'Hello, how can I help?' })) as { id: number }).id;
      await api('PUT', `/quickAnswers/${state.quickAnswerId}`, agentA.token, { shortcut: 'hi', message: 'Hello again, how can I help?' });
      await api('DELETE', `/quickAnswers/${state.quickAnswerId}`, agentA.token);
    },
    hears: () => [
      ['bPage', 'quickAnswer', { action: 'create', quickAnswer: expect.objectContaining({ id: state.quickAnswerId, shortcut: 'hi', message: 'Hello, how can I help?' }) }],
      ['bPage', 'quickAnswer', { action: 'update', quickAnswer: expect.objectContaining({ id: state.quickAnswerId, message: 'Hello again, how can I help?' }) }],
      ['bPage', 'quickAnswer', { action: 'delete', quickAnswerId: state.quickAnswerId }],
    ],
  },
  {
    action: 'settings: PUT /settings/userCreation {value}',
    run: async () => void (await api('PUT', '/settings/userCreation', t.adminToken, { value: 'enabled' })),
    hears: () => [['adminPage', 'settings', { action: 'update', setting: expect.objectContaining({ key: 'userCreation', value: 'enabled' }) }]],
    silent: () => [['aPage', 'settings']],
  },
  {
    action: 'connection: PUT /whatsapp/:id, its session, DELETE /whatsapp/:id',
    run: async () => {
      await api('PUT', `/whatsapp/${line.id}`, t.adminToken, { name: 'Front desk', isDefault: true, greetingMessage: 'Choose a queue', queueIds: [q1.id, q2.id] });
      await api('POST', `/simulator/${line.id}/disconnect`, t.adminToken);
      await vi.waitFor(() => expect(named(s('adminPage'), 'whatsappSession').length).toBeGreaterThan(0));
      await api('DELETE', `/whatsapp/${line.id}`, t.adminToken);
    },
    hears: () => [
      ['aPage', 'whatsapp', { action: 'update', whatsapp: expect.objectContaining({ id: line.id, name: 'Front desk', status: anything, isDefault: anything }) }],
      ['adminPage', 'whatsappSession', { action: 'update', session: expect.objectContaining({ id: line.id, status: anything, qrcode: anything, retries: anything, updatedAt: anything }) }],
      ['aPage', 'whatsapp', { action: 'delete', whatsappId: line.id }],
    ],
  },
];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
  q1 = await t.createQueue({ name: 'Q1' });
  q2 = await t.createQueue({ name: 'Q2' });
  const a = await t.createUser({ name: 'Agent A', queueIds: [q1.id] });
  const b = await t.createUser({ name: 'Agent B', queueIds: [q2.id] });
  agentA = { id: a.user.id, token: a.token };
  agentB = { id: b.user.id, token: b.token };
  line = (await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { channel: 'simulator', name: 'Line', queueIds: [q1.id] } })).json<TWhatsapp>();
  await t.request({ method: 'POST', url: `/api/simulator/${line.id}/scan`, token: t.adminToken });
  for (const [who, token] of [
    ['a', agentA.token],
    ['b', agentB.token],
  ] as const) {
    for (const status of ['pending', 'open', 'closed']) c[`${who}${status[0]?.toUpperCase()}${status.slice(1)}`] = await screen(token, ['joinTickets', status]);
    c[`${who}Bell`] = await screen(token, ['joinNotification']);
    c[`${who}Page`] = await screen(token);
  }
  c.adminPage = await screen(t.adminToken);
  // Our own app's pending list on the main namespace (auth.token, joins acknowledged).
  const ours = connectSocket(url, { auth: { token: agentA.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  c.zPending = record(ours);
  await new Promise((resolve) => ours.once('connect', () => resolve(undefined)));
  expect(await ours.emitWithAck('joinTickets', 'pending')).toEqual({ ok: true });
}, 30_000);

afterAll(async () => {
  closeAll();
  await t.close();
});

describe('whaticket frontend socket contract (namespace /api, query token)', () => {
  for (const row of ROWS) {
    it(row.action, async () => {
      for (const client of all) client.mark = client.received.length;
      await row.run();
      for (const [name, event, payload] of row.hears()) {
        const client = s(name);
        await vi.waitFor(() => expect(named(client, event), `${name} hears ${event}`).toContainEqual(payload), { timeout: 4000, interval: 20 });
      }
      await fence();
      for (const [name, event, action] of row.silent?.() ?? []) {
        const client = s(name);
        const heard = named(client, event).filter((p) => action === undefined || (p as { action?: string }).action === action);
        expect(heard, `${name} must not hear ${event}${action ? ` ${action}` : ''}`).toEqual([]);
      }
    });
  }
});
