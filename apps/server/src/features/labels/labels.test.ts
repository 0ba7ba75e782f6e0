/** Labels through the API: the admin's list, labels on tickets and contacts, the list filters, the exports, a bulk send to a label. */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TRecipientList } from '@zapdesk/shared/campaigns';
import { csvRows } from '@zapdesk/shared/csv';
import type { TLabel } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TContact } from '@zapdesk/shared/schemas';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let phone: number;
let made = 0;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  await t.listen();
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Labels phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

async function createLabel(name?: string, color = '#1E88E5'): Promise<TLabel> {
  made += 1;
  const res = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name: name ?? `Etiqueta ${made}`, color } });
  expect(res.statusCode).toBe(201);
  return res.json<TLabel>();
}

async function tickets(query: string, token = t.adminToken): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: `/api/tickets?${query}`, token });
  expect(res.statusCode).toBe(200);
  return res.json<{ tickets: TTicket[] }>().tickets;
}

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);

describe('the labels an admin defines', () => {
  it('creates, lists, renames and deletes a label; the colour is stored upper case', async () => {
    const created = await createLabel('Urgente', '#e53935');
    expect(created).toMatchObject({ name: 'Urgente', color: '#E53935' });
    const { token } = await t.createUser();
    const listed = (await t.request({ method: 'GET', url: '/api/labels', token })).json<TLabel[]>();
    expect(listed.find((l) => l.id === created.id)).toMatchObject({ name: 'Urgente' });

    const renamed = await t.request({ method: 'PUT', url: `/api/labels/${created.id}`, token: t.adminToken, payload: { name: 'Muito urgente', color: '#000000' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: created.id, name: 'Muito urgente', color: '#000000' });

    expect((await t.request({ method: 'DELETE', url: `/api/labels/${created.id}`, token: t.adminToken })).statusCode).toBe(204);
    const again = await t.request({ method: 'DELETE', url: `/api/labels/${created.id}`, token: t.adminToken });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: 'ERR_NO_LABEL_FOUND' });
  });

  it('refuses a name already used, whatever its case or accents', async () => {
    const first = await createLabel('Promoção');
    for (const name of ['promoção', 'PROMOCAO', ' Promocao ']) {
      const res = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name, color: '#43A047' } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'ERR_LABEL_NAME_ALREADY_EXISTS', fields: { name: 'TAKEN' } });
    }
    const other = await createLabel('Promoções');
    const rename = await t.request({ method: 'PUT', url: `/api/labels/${other.id}`, token: t.adminToken, payload: { name: 'PROMOÇÃO', color: '#43A047' } });
    expect(rename.json()).toMatchObject({ error: 'ERR_LABEL_NAME_ALREADY_EXISTS' });
    // Its own name, in another case, is fine.
    const same = await t.request({ method: 'PUT', url: `/api/labels/${first.id}`, token: t.adminToken, payload: { name: 'PROMOÇÃO', color: '#43A047' } });
    expect(same.statusCode).toBe(200);
  });

  it('answers bad input with 400 and the field', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ name: '', color: '#123456' }, { name: 'REQUIRED' }],
      [{ name: 'x'.repeat(31), color: '#123456' }, { name: 'TOO_LONG' }],
      [{ name: 'Bom', color: 'red' }, { color: 'INVALID' }],
      [{ name: 'Bom' }, { color: 'REQUIRED' }],
      [{ name: 12, color: '#123456' }, { name: 'INVALID' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields });
    }
    expect((await t.request({ method: 'PUT', url: '/api/labels/0', token: t.adminToken, payload: { name: 'Bom', color: '#123456' } })).statusCode).toBe(400);
    const missing = await t.request({ method: 'PUT', url: '/api/labels/999999', token: t.adminToken, payload: { name: 'Bom', color: '#123456' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'ERR_NO_LABEL_FOUND' });
  });

  it('lets only admins change labels (403 for an agent), while everyone reads them', async () => {
    const label = await createLabel();
    const { token } = await t.createUser();
    for (const req of [
      { method: 'POST' as const, url: '/api/labels', payload: { name: 'Nope', color: '#123456' } },
      { method: 'PUT' as const, url: `/api/labels/${label.id}`, payload: { name: 'Nope', color: '#123456' } },
      { method: 'DELETE' as const, url: `/api/labels/${label.id}` },
    ]) {
      const res = await t.request({ ...req, token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.request({ method: 'GET', url: '/api/labels' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/labels', token })).statusCode).toBe(200);
  });
});

describe('labels on tickets', () => {
  it('puts a label on and takes it off; the payload carries it; a second put changes nothing', async () => {
    const label = await createLabel();
    const ticket = await t.inboundTicket(phone);
    const on = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(on.statusCode).toBe(200);
    expect(on.json<TTicket>().labels).toEqual([{ id: label.id, name: label.name, color: label.color }]);
    const twice = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(twice.json<TTicket>().labels).toHaveLength(1);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json<TTicket>().labels.map((l) => l.id)).toEqual([label.id]);

    const off = await t.request({ method: 'DELETE', url: `/api/tickets/${ticket.id}/labels/${label.id}`, token: t.adminToken });
    expect(off.statusCode).toBe(200);
    expect(off.json<TTicket>().labels).toEqual([]);
  });

  it('lets an agent label the tickets they see, and no other (answered as not found)', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const other = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [queue.id] });
    const mine = await t.inboundTicket(phone);
    const theirs = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${mine.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    await t.request({ method: 'PUT', url: `/api/tickets/${theirs.id}`, token: t.adminToken, payload: { queueId: other.id } });
    expect((await t.request({ method: 'POST', url: `/api/tickets/${mine.id}/labels`, token, payload: { labelId: label.id } })).statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url: `/api/tickets/${theirs.id}/labels`, token, payload: { labelId: label.id } });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await t.request({ method: 'GET', url: `/api/tickets/${theirs.id}`, token: t.adminToken })).json<TTicket>().labels).toEqual([]);
  });

  it('answers a bad label or ticket with an ERR_ code', async () => {
    const ticket = await t.inboundTicket(phone);
    const unknown = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: 999999 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_LABEL_FOUND' });
    const bad = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { labelId: 'INVALID' } });
    const badParam = await t.request({ method: 'DELETE', url: `/api/tickets/${ticket.id}/labels/abc`, token: t.adminToken });
    expect(badParam.statusCode).toBe(400);
    const noTicket = await t.request({ method: 'POST', url: '/api/tickets/999999/labels', token: t.adminToken, payload: { labelId: (await createLabel()).id } });
    expect(noTicket.json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it('tells everyone who sees the ticket, live, and a deleted label leaves the ticket', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const ticket = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    const { token } = await t.createUser({ queueIds: [queue.id] });
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connectSocket(t.url ?? '', {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const heard: { event: string; payload: unknown }[] = [];
    socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      await socket.emitWithAck('joinTickets', 'pending');
      const labelled = (p: unknown, want: number[]) => {
        const t2 = (p as { ticket?: TTicket }).ticket;
        return t2?.id === ticket.id && JSON.stringify(t2.labels.map((l) => l.id)) === JSON.stringify(want);
      };
      await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
      await waitFor(
        async () => heard,
        (h) => h.some((e) => e.event === 'ticket' && labelled(e.payload, [label.id])),
      );

      await t.request({ method: 'DELETE', url: `/api/labels/${label.id}`, token: t.adminToken });
      await waitFor(
        async () => heard,
        (h) => h.some((e) => e.event === 'label' && (e.payload as { action: string; labelId?: number }).labelId === label.id),
      );
      await waitFor(
        async () => heard,
        (h) => h.some((e) => e.event === 'ticket' && labelled(e.payload, [])),
      );
      expect((await t.request({ method: 'GET', url: `/api/tickets/${ticket.id}`, token: t.adminToken })).json<TTicket>().labels).toEqual([]);
    } finally {
      socket.close();
    }
  });
});

describe('the ticket list filtered by label', () => {
  it('keeps only the tickets carrying any of the labels, on every tab and in a search', async () => {
    const vip = await createLabel();
    const late = await createLabel();
    const a = await t.inboundTicket(phone, 'filtro etiqueta');
    const b = await t.inboundTicket(phone, 'filtro etiqueta');
    const c = await t.inboundTicket(phone, 'filtro etiqueta');
    await t.request({ method: 'POST', url: `/api/tickets/${a.id}/labels`, token: t.adminToken, payload: { labelId: vip.id } });
    await t.request({ method: 'POST', url: `/api/tickets/${b.id}/labels`, token: t.adminToken, payload: { labelId: late.id } });

    expect(ids(await tickets(`status=pending&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    expect(ids(await tickets(`status=pending&showAll=true&labelIds=${vip.id},${late.id}`))).toEqual([a.id, b.id]);
    expect(ids(await tickets(`showAll=true&searchParam=${encodeURIComponent('filtro etiqueta')}&labelIds=[${late.id}]`))).toEqual([b.id]);
    expect(ids(await tickets(`showAll=true&searchParam=${encodeURIComponent('filtro etiqueta')}`))).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    // The 'open' tab: accepted by an agent, still filtered.
    await t.request({ method: 'PUT', url: `/api/tickets/${a.id}`, token: t.adminToken, payload: { status: 'open' } });
    expect(ids(await tickets(`status=open&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    expect(ids(await tickets(`status=pending&showAll=true&labelIds=[${vip.id}]`))).toEqual([]);
    // 'Resolvidos'.
    await t.request({ method: 'PUT', url: `/api/tickets/${a.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(ids(await tickets(`status=closed&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    const res = await t.request({ method: 'GET', url: `/api/tickets?status=closed&showAll=true&labelIds=[${vip.id}]`, token: t.adminToken });
    expect(res.json()).toMatchObject({ count: 1 });
  });

  it('never widens what an agent sees', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const other = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [queue.id] });
    const mine = await t.inboundTicket(phone);
    const theirs = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${mine.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    await t.request({ method: 'PUT', url: `/api/tickets/${theirs.id}`, token: t.adminToken, payload: { queueId: other.id } });
    for (const id of [mine.id, theirs.id]) await t.request({ method: 'POST', url: `/api/tickets/${id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(ids(await tickets(`status=pending&labelIds=[${label.id}]`, token))).toEqual([mine.id]);
  });

  it('refuses a malformed filter with 400', async () => {
    for (const bad of ['[0]', 'abc', '[1,"x"]', '1,,2', `[${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}]`]) {
      const res = await t.request({ method: 'GET', url: `/api/tickets?labelIds=${encodeURIComponent(bad)}`, token: t.adminToken });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { labelIds: 'INVALID' } });
    }
  });
});

describe('labels on contacts', () => {
  it('puts a label on a contact, filters the contacts by it, and the CSV export has a labels column', async () => {
    const label = await createLabel('Cliente fiel');
    const second = await createLabel('Atacado');
    const tagged = await t.createContact({ name: 'Ana Etiquetada' });
    const plain = await t.createContact({ name: 'Bruno Sem' });
    const on = await t.request({ method: 'POST', url: `/api/contacts/${tagged.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(on.statusCode).toBe(200);
    expect(on.json<TContact>().labels).toEqual([{ id: label.id, name: 'Cliente fiel', color: label.color }]);
    await t.request({ method: 'POST', url: `/api/contacts/${tagged.id}/labels`, token: t.adminToken, payload: { labelId: second.id } });

    const filtered = (await t.request({ method: 'GET', url: `/api/contacts?labelIds=[${label.id}]`, token: t.adminToken })).json<{ contacts: TContact[]; count: number }>();
    expect(filtered.contacts.map((c) => c.id)).toEqual([tagged.id]);
    expect(filtered.count).toBe(1);
    const searched = (await t.request({ method: 'GET', url: `/api/contacts?searchParam=Bruno%20Sem&labelIds=[${label.id}]`, token: t.adminToken })).json<{ contacts: TContact[] }>();
    expect(searched.contacts).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/api/contacts/${plain.id}`, token: t.adminToken })).json<TContact>().labels).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/api/contacts?labelIds=nope', token: t.adminToken })).statusCode).toBe(400);

    const csv = await t.request({ method: 'GET', url: '/api/contacts/export', token: t.adminToken });
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csvRows(csv.body.replace(/^\uFEFF/, ''));
    expect(header).toEqual(['name', 'number', 'email', 'labels']);
    expect(rows.find((r) => r[0] === 'Ana Etiquetada')?.[3]).toBe('Atacado, Cliente fiel');
    expect(rows.find((r) => r[0] === 'Bruno Sem')?.[3]).toBe('');

    const off = await t.request({ method: 'DELETE', url: `/api/contacts/${tagged.id}/labels/${second.id}`, token: t.adminToken });
    expect(off.json<TContact>().labels.map((l) => l.id)).toEqual([label.id]);
  });

  it('a contact the agent cannot see cannot be labelled', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [] });
    const ticket = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    const res = await t.request({ method: 'POST', url: `/api/contacts/${ticket.contactId}/labels`, token, payload: { labelId: label.id } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
  });
});

describe('a bulk send to a label', () => {
  it('reaches the phones of the contacts with the label, stored like typed numbers', async () => {
    const label = await createLabel();
    const first = await t.createContact({ name: 'Campanha Um', number: '5511987650101' });
    const second = await t.createContact({ name: 'Campanha Dois', number: '5511987650102' });
    await t.createContact({ name: 'Campanha Fora', number: '5511987650103' });
    for (const c of [first, second]) await t.request({ method: 'POST', url: `/api/contacts/${c.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    const body = `Oferta para a etiqueta ${Date.now()}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: phone, labelId: label.id, message: body, minDelay: 0, maxDelay: 0 },
    });
    expect(res.statusCode).toBe(201);
    const { campaign } = res.json<{ campaign: TCampaign }>();
    expect(campaign.total).toBe(2);
    // Taken off after creation: the recipients were read at creation and stay.
    await t.request({ method: 'DELETE', url: `/api/contacts/${second.id}/labels/${label.id}`, token: t.adminToken });

    const done = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}`, token: t.adminToken })).json<TCampaign>(),
      (c) => c.status === 'completed',
    );
    expect(done.counts.sent).toBe(2);
    const recipients = (await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}/recipients`, token: t.adminToken })).json<TRecipientList>();
    expect(recipients.recipients.map((r) => r.input).sort()).toEqual(['5511987650101', '5511987650102']);
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${phone}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(
      outbox
        .filter((m) => m.body === body)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['5511987650101', '5511987650102']);
  });

  it('refuses a label without contacts, an unknown label, and neither numbers nor label', async () => {
    const empty = await createLabel();
    const base = { kind: 'text', whatsappId: phone, message: 'x', minDelay: 0, maxDelay: 0 };
    const none = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: { ...base, labelId: empty.id } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'ERR_NO_RECIPIENTS', fields: { labelId: 'REQUIRED' } });
    const unknown = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: { ...base, labelId: 999999 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_LABEL_FOUND' });
    const neither = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: base });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { numbers: 'REQUIRED' } });
  });
});
