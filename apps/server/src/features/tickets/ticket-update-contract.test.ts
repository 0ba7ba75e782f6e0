/**
 * `PUT /tickets/{id} {status, userId, queueId, whatsappId}` as clients written for spec 7 send
 * it: a request whose status changes is a status change by the caller; it is a transfer only
 * when the user, the queue or the connection really changes, and only a transfer tells the
 * contact. Each row starts from a fresh ticket in the state it names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
const ids = { me: 0, other: 0, A: 0, B: 0, W1: 0, W2: 0 };

type Start = 'pending' | 'open' | 'closed';
type Who = 'me' | 'other' | null;
type Body = { status?: Start; userId?: Who; queueId?: 'A' | 'B' | null; whatsappId?: 'W1' | 'W2' };
type Outcome = { status: Start; userId: Who; queueId: 'A' | 'B' | null; whatsappId: 'W1' | 'W2'; notice: boolean } | { error: 400 };

const cases: [Start, Body, Outcome][] = [
  // Status changes, with the fields a spec client adds.
  ['pending', { status: 'open' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { status: 'open', userId: 'me' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { status: 'open', userId: 'other' }, { status: 'open', userId: 'other', queueId: 'A', whatsappId: 'W1', notice: true }],
  ['pending', { status: 'open', userId: 'me', queueId: 'B' }, { status: 'open', userId: 'me', queueId: 'B', whatsappId: 'W1', notice: true }],
  // Accepted onto another connection: a transfer, told from the new connection.
  ['pending', { status: 'open', whatsappId: 'W2' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W2', notice: true }],
  ['pending', { status: 'closed' }, { status: 'closed', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { status: 'closed', userId: 'me' }, { status: 'closed', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'closed', userId: 'me' }, { status: 'closed', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'closed', userId: 'me', queueId: 'A', whatsappId: 'W1' }, { status: 'closed', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'closed', userId: 'other' }, { error: 400 }],
  ['open', { status: 'closed', queueId: 'B' }, { error: 400 }],
  ['open', { status: 'pending' }, { status: 'pending', userId: null, queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'pending', userId: null, queueId: 'A' }, { status: 'pending', userId: null, queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'pending', queueId: 'B' }, { status: 'pending', userId: null, queueId: 'B', whatsappId: 'W1', notice: true }],
  ['closed', { status: 'open', userId: 'me' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['closed', { status: 'open', userId: 'other' }, { status: 'open', userId: 'other', queueId: 'A', whatsappId: 'W1', notice: true }],
  // The same status with other fields: a transfer only where something really changes.
  ['open', { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { status: 'open', userId: 'other' }, { status: 'open', userId: 'other', queueId: 'A', whatsappId: 'W1', notice: true }],
  ['open', { userId: 'me' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { userId: 'other' }, { status: 'open', userId: 'other', queueId: 'A', whatsappId: 'W1', notice: true }],
  ['open', { queueId: 'A' }, { status: 'pending', userId: null, queueId: 'A', whatsappId: 'W1', notice: true }],
  ['open', { queueId: 'B' }, { status: 'pending', userId: null, queueId: 'B', whatsappId: 'W1', notice: true }],
  ['open', { userId: 'me', queueId: 'B' }, { status: 'open', userId: 'me', queueId: 'B', whatsappId: 'W1', notice: true }],
  ['open', { userId: 'me', queueId: 'A' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { whatsappId: 'W1' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W1', notice: false }],
  ['open', { whatsappId: 'W2' }, { status: 'open', userId: 'me', queueId: 'A', whatsappId: 'W2', notice: false }],
  ['pending', { userId: null }, { status: 'pending', userId: null, queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { queueId: 'A' }, { status: 'pending', userId: null, queueId: 'A', whatsappId: 'W1', notice: false }],
  ['pending', { status: 'pending', queueId: 'B' }, { status: 'pending', userId: null, queueId: 'B', whatsappId: 'W1', notice: true }],
  ['pending', { userId: 'other' }, { status: 'open', userId: 'other', queueId: 'A', whatsappId: 'W1', notice: true }],
];

function idOf(value: Who | 'A' | 'B' | 'W1' | 'W2' | null | undefined): number | null | undefined {
  return value === undefined ? undefined : value === null ? null : ids[value];
}

function nameOf<K extends 'me' | 'other' | 'A' | 'B' | 'W1' | 'W2'>(keys: K[], id: number | null): K | null {
  return id === null ? null : (keys.find((k) => ids[k] === id) ?? null);
}

async function notices(number: string): Promise<number> {
  let n = 0;
  for (const w of [ids.W1, ids.W2]) {
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${w}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    n += outbox.filter((o) => o.to.includes(number) && o.body.includes('transferido')).length;
  }
  return n;
}

async function ticketIn(state: Start): Promise<TTicket> {
  const ticket = await t.inboundTicket(ids.W1);
  expect(ticket).toMatchObject({ status: 'pending', queueId: ids.A, userId: null });
  if (state === 'pending') return ticket;
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
  if (state === 'closed') expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
  return ticket;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  ids.me = (await t.login('admin@test.local', 'admin-pass')).user.id;
  ids.A = (await t.createQueue({ name: 'Vendas' })).id;
  ids.B = (await t.createQueue({ name: 'Suporte' })).id;
  ids.other = (await t.createUser({ name: 'Outra Agente', queueIds: [ids.A, ids.B] })).user.id;
  for (const [key, queueIds] of [
    ['W1', [ids.A]],
    ['W2', []],
  ] as const) {
    const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: key, channel: 'simulator', isDefault: key === 'W1', queueIds } });
    ids[key] = created.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${ids[key]}/scan`, token: t.adminToken });
  }
});
afterAll(async () => {
  await t.close();
});

describe('PUT /api/tickets/{id}: status change or transfer', () => {
  it.each(cases)('%s ticket, %j', async (start, body, outcome) => {
    const ticket = await ticketIn(start);
    const before = await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken });
    const payload = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === 'status' ? v : idOf(v as Who)]));
    const res = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload });
    const after = (await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json<TTicket>();
    if ('error' in outcome) {
      expect(res.statusCode).toBe(outcome.error);
      expect(res.json()).toMatchObject({ error: 'ERR_RESOLVE_WITH_TRANSFER' });
      expect(after).toEqual(before.json());
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TTicket>()).toMatchObject({ id: ticket.id, status: after.status, userId: after.userId });
    const seen = {
      status: after.status,
      userId: nameOf(['me', 'other'], after.userId),
      queueId: nameOf(['A', 'B'], after.queueId),
      whatsappId: nameOf(['W1', 'W2'], after.whatsappId),
      // The transfer's notice is stored, then sent: where one is expected, wait until the phone has it.
      notice:
        (outcome.notice
          ? await waitFor(
              () => notices(ticket.contact.number),
              (n) => n > 0,
            ).catch(() => 0)
          : await notices(ticket.contact.number)) > 0,
    };
    expect(seen).toEqual(outcome);
  });
});
