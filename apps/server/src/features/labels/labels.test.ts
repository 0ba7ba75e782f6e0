/** Labels through the API: the admin's list (names, colours, who may change them) and labels on tickets, live. */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLabel } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
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

  it('records who created, changed and deleted a label in the audit log, and the refused attempt', async () => {
    const label = await createLabel('Auditada');
    await t.request({ method: 'PUT', url: `/api/labels/${label.id}`, token: t.adminToken, payload: { name: 'Auditada 2', color: '#000000' } });
    const { token } = await t.createUser();
    await t.request({ method: 'DELETE', url: `/api/labels/${label.id}`, token });
    await t.request({ method: 'DELETE', url: `/api/labels/${label.id}`, token: t.adminToken });
    const rows = await t.ctx.db
      .selectFrom('auditEvents')
      .select(['action', 'outcome', 'targetType', 'targetName'])
      .where('targetType', '=', 'label')
      .where('targetId', '=', String(label.id))
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'labels.create', outcome: 'ok', targetType: 'label', targetName: 'Auditada' },
      { action: 'labels.update', outcome: 'ok', targetType: 'label', targetName: 'Auditada 2' },
      { action: 'labels.delete', outcome: 'denied', targetType: 'label', targetName: null },
      { action: 'labels.delete', outcome: 'ok', targetType: 'label', targetName: null },
    ]);
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
