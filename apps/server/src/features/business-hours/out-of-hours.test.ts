/**
 * Out-of-hours replies through the real pipeline and the simulated phone: once per conversation,
 * on a holiday, in a time zone without DST (America/Sao_Paulo), nothing inside the hours.
 * The hours are laid around the real clock (closed for hours before and after now), so no
 * test waits for a time of day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDateAt, localPartsAt, type BusinessHours } from '@zapdesk/shared/business-hours';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

const SP = 'America/Sao_Paulo';
let t: TestApp;
let n = 0;
const number = () => `5521${String(910000000 + (n += 1) * 7919 + Math.floor(Math.random() * 1000))}`;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

const pad = (v: number) => String(v).padStart(2, '0');
/** Every day the same ranges, covering local hours [start, start + length), wrapping past midnight. */
function everyDay(start: number, length: number): BusinessHours['week'] {
  const from = ((start % 24) + 24) % 24;
  const to = from + length;
  const ranges =
    to <= 24
      ? [{ from: `${pad(from)}:00`, to: to === 24 ? '24:00' : `${pad(to)}:00` }]
      : [
          { from: '00:00', to: `${pad(to - 24)}:00` },
          { from: `${pad(from)}:00`, to: '24:00' },
        ];
  return Array.from({ length: 7 }, () => ranges);
}
const localHour = (timezone: string) => localPartsAt(timezone, Date.now()).hour;
/** Open two hours, starting ten hours from now: closed now, by hours either side. */
const closedNow = (timezone = SP): BusinessHours => ({ timezone, week: everyDay(localHour(timezone) + 10, 2), holidays: [] });
/** Open from three hours before now to three after. */
const openNow = (timezone = SP): BusinessHours => ({ timezone, week: everyDay(localHour(timezone) - 3, 7), holidays: [] });

async function connected(body: Record<string, unknown> = {}): Promise<TWhatsapp> {
  const res = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Loja ${(n += 1)}`, channel: 'simulator', greetingMessage: '', ...body } });
  expect(res.statusCode).toBe(201);
  const w = res.json<TWhatsapp>();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
  return w;
}

async function setHours(path: string, hours: BusinessHours, outOfHoursMessage: string) {
  const res = await t.request({ method: 'PUT', url: `/api/business-hours/${path}`, token: t.adminToken, payload: { ...hours, outOfHoursMessage } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function write(whatsappId: number, payload: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/inbound`, token: t.adminToken, payload });
  expect(res.statusCode).toBe(200);
}

async function ticketOf(contactNumber: string): Promise<TTicket> {
  const [ticket] = await waitFor(
    async () =>
      ((await t.request({ method: 'GET', url: '/api/tickets?showAll=true&status=pending', token: t.adminToken })).json().tickets as TTicket[]).filter((x) => x.contact.number === contactNumber),
    (x) => x.length === 1,
  );
  if (!ticket) throw new Error('no ticket');
  return ticket;
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json().messages;
}

async function phoneGot(whatsappId: number, to: string): Promise<TSimulatorOutboxItem[]> {
  const items = (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
  return items.filter((item) => item.to === to);
}

describe('the out-of-hours reply', () => {
  it('reaches the phone once per conversation, with its variables, and again after a resolve', async () => {
    const queue = await t.createQueue({ name: 'Suporte' });
    await setHours(`queues/${queue.id}`, closedNow(), 'Olá {{name}}, o {{queue}} da {{connection}} está fechado agora. Respondemos assim que abrirmos.');
    const w = await connected({ queueIds: [queue.id] });
    const from = number();
    const expected = `Olá Joana, o Suporte da ${w.name} está fechado agora. Respondemos assim que abrirmos.`;

    await write(w.id, { from, name: 'Joana', body: 'Boa noite, alguém aí?' });
    const got = await waitFor(
      () => phoneGot(w.id, from),
      (items) => items.length >= 1,
    );
    expect(got.map((item) => item.body)).toEqual([expected]);
    const ticket = await ticketOf(from);
    // The ticket waits for the morning, in its queue.
    expect(ticket).toMatchObject({ status: 'pending', queueId: queue.id, userId: null });

    // The next message of the same conversation gets nothing more (the reply is stored before the inbound call returns).
    await write(w.id, { from, body: 'Olá?' });
    const rows = await waitFor(
      () => messagesOf(ticket.id),
      (list) => list.some((m) => m.body === 'Olá?'),
    );
    expect(rows.filter((m) => m.fromMe).map((m) => m.body)).toEqual([expected]);

    // Resolved, then the customer writes again: a new conversation, a new reply.
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
    await write(w.id, { from, body: 'Voltei' });
    const again = await waitFor(
      () => phoneGot(w.id, from),
      (items) => items.filter((item) => item.body === expected).length >= 2,
    );
    expect(again.filter((item) => item.body === expected)).toHaveLength(2);
    await write(w.id, { from, body: 'Ainda fechado?' });
    const reopened = await ticketOf(from);
    const after = await messagesOf(reopened.id);
    expect(after.filter((m) => m.fromMe && m.body === expected)).toHaveLength(2);
    expect((await phoneGot(w.id, from)).filter((item) => item.body === expected)).toHaveLength(2);
  });

  it('is sent all day on a holiday, and not the day after when the hours say open', async () => {
    const queue = await t.createQueue({ name: 'Feriado' });
    const now = Date.now();
    const holidays = [-1, 0, 1].map((days) => localDateAt(SP, now + days * 86_400_000));
    const allDay: BusinessHours = { timezone: SP, week: everyDay(0, 24), holidays };
    await setHours(`queues/${queue.id}`, allDay, 'Hoje é feriado, {{name}}. Voltamos amanhã.');
    const w = await connected({ queueIds: [queue.id] });
    const from = number();
    await write(w.id, { from, name: 'Rui', body: 'Oi' });
    const got = await waitFor(
      () => phoneGot(w.id, from),
      (items) => items.length >= 1,
    );
    expect(got.map((item) => item.body)).toEqual(['Hoje é feriado, Rui. Voltamos amanhã.']);

    // Without the holiday the same hours are open: a new customer gets nothing.
    await setHours(`queues/${queue.id}`, { ...allDay, holidays: [] }, 'Hoje é feriado, {{name}}. Voltamos amanhã.');
    const other = number();
    await write(w.id, { from: other, name: 'Lia', body: 'Oi' });
    const ticket = await ticketOf(other);
    expect((await messagesOf(ticket.id)).filter((m) => m.fromMe)).toEqual([]);
  });

  it("follows the hours' time zone: closed in São Paulo, open at the same moment in Tokyo", async () => {
    const queue = await t.createQueue({ name: 'Fuso' });
    const w = await connected({ queueIds: [queue.id] });
    await setHours(`queues/${queue.id}`, openNow(SP), 'Fechado.');
    const inside = number();
    await write(w.id, { from: inside, body: 'Oi' });
    expect((await messagesOf((await ticketOf(inside)).id)).filter((m) => m.fromMe)).toEqual([]);

    // The same local hours in Tokyo (12 hours ahead, no DST either) are closed right now.
    const tokyo = openNow(SP);
    await setHours(`queues/${queue.id}`, { ...tokyo, timezone: 'Asia/Tokyo', week: everyDay(localHour(SP) - 3, 7) }, 'Fechado.');
    const outside = number();
    await write(w.id, { from: outside, body: 'Oi' });
    await waitFor(
      () => phoneGot(w.id, outside),
      (items) => items.some((item) => item.body === 'Fechado.'),
    );
    expect(await phoneGot(w.id, inside)).toEqual([]);
  });

  it("uses the default hours and message for a ticket without a queue, the default's message for a queue without one, and never answers a group", async () => {
    await setHours('default', closedNow(), 'Estamos fora do horário, {{name}}.');
    const w = await connected();
    const from = number();
    await write(w.id, { from, name: 'Caio', body: 'Oi' });
    await waitFor(
      () => phoneGot(w.id, from),
      (items) => items.some((item) => item.body === 'Estamos fora do horário, Caio.'),
    );

    const quiet = await t.createQueue({ name: 'Sem texto' });
    await setHours(`queues/${quiet.id}`, closedNow(), '');
    const w2 = await connected({ queueIds: [quiet.id] });
    const second = number();
    await write(w2.id, { from: second, name: 'Duda', body: 'Oi' });
    await waitFor(
      () => phoneGot(w2.id, second),
      (items) => items.some((item) => item.body === 'Estamos fora do horário, Duda.'),
    );

    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
    await write(w.id, { from: number(), name: 'Tia', body: 'bom dia, grupo', group: { id: 'grp-hours', subject: 'Família' } });
    const group = await ticketOf('grp-hours');
    expect((await messagesOf(group.id)).filter((m) => m.fromMe)).toEqual([]);
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'enabled' } });
    expect((await t.request({ method: 'DELETE', url: '/api/business-hours/default', token: t.adminToken })).statusCode).toBe(204);
  });

  it("marks the queues closed now in the menu when the option is on, in the product's language", async () => {
    const open = await t.createQueue({ name: 'Vendas' });
    const shut = await t.createQueue({ name: 'Financeiro' });
    await setHours(`queues/${shut.id}`, closedNow(), '');
    const w = await connected({ queueIds: [open.id, shut.id], greetingMessage: 'Escolha:' });
    const plain = number();
    await write(w.id, { from: plain, body: 'oi' });
    await waitFor(
      () => phoneGot(w.id, plain),
      (items) => items.some((item) => item.body === 'Escolha:\n\n*1* - Financeiro\n*2* - Vendas'),
    );
    await t.request({ method: 'PUT', url: '/api/settings/businessHoursInMenu', token: t.adminToken, payload: { value: 'enabled' } });
    const marked = number();
    await write(w.id, { from: marked, body: 'oi' });
    await waitFor(
      () => phoneGot(w.id, marked),
      (items) => items.some((item) => item.body === 'Escolha:\n\n*1* - Financeiro (fechado agora)\n*2* - Vendas'),
    );
    await t.request({ method: 'PUT', url: '/api/settings/businessHoursInMenu', token: t.adminToken, payload: { value: 'disabled' } });
  });
});

describe('the hours routes', () => {
  it('are for admins, check their input, and a queue without its own hours shows none', async () => {
    const queue = await t.createQueue({ name: 'Rotas' });
    const { token } = await t.createUser({ queueIds: [queue.id] });
    expect((await t.request({ method: 'GET', url: '/api/business-hours', token })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/business-hours/queues/${queue.id}`, token, payload: { ...closedNow(), outOfHoursMessage: '' } })).statusCode).toBe(403);

    const bad = await t.request({ method: 'PUT', url: `/api/business-hours/queues/${queue.id}`, token: t.adminToken, payload: { ...closedNow(), timezone: 'Lua/Crateras' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    const backwards = await t.request({
      method: 'PUT',
      url: `/api/business-hours/queues/${queue.id}`,
      token: t.adminToken,
      payload: { timezone: SP, week: everyDay(0, 0).map(() => [{ from: '18:00', to: '08:00' }]), holidays: [] },
    });
    expect(backwards.statusCode).toBe(400);
    expect((await t.request({ method: 'PUT', url: '/api/business-hours/queues/999999', token: t.adminToken, payload: { ...closedNow(), outOfHoursMessage: '' } })).json().error).toBe(
      'ERR_NO_QUEUE_FOUND',
    );

    expect((await t.request({ method: 'GET', url: `/api/business-hours/queues/${queue.id}`, token: t.adminToken })).json()).toEqual({ queueId: queue.id, hours: null, outOfHoursMessage: '' });
    const hours = { timezone: SP, week: everyDay(8, 10), holidays: ['2026-12-25', '2026-12-25', '2026-01-01'] };
    const saved = await setHours(`queues/${queue.id}`, hours, 'Fechado, {{name}}.');
    expect(saved).toEqual({ queueId: queue.id, hours: { ...hours, holidays: ['2026-01-01', '2026-12-25'] }, outOfHoursMessage: 'Fechado, {{name}}.' });
    const list = (await t.request({ method: 'GET', url: '/api/business-hours', token: t.adminToken })).json();
    expect(list[0]).toMatchObject({ queueId: null });
    expect(list.find((e: { queueId: number | null }) => e.queueId === queue.id)).toEqual(saved);
    expect((await t.request({ method: 'DELETE', url: `/api/business-hours/queues/${queue.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/business-hours/queues/${queue.id}`, token: t.adminToken })).json().hours).toBeNull();
  });
});
