/**
 * The dashboard's first-response wait with and without `businessHoursInFigures`, on a fixture
 * computed by hand: a queue open 08:00–18:00 every day in São Paulo (UTC−3, no DST).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localDateAt } from '@zapdesk/shared/business-hours';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SP = 'America/Sao_Paulo';
const minutes = (n: number) => n * 60_000;

it('counts waiting time only within opening hours when the setting is on', async () => {
  const w = await t.insertWhatsapp();
  const queue = await t.createQueue({ name: 'Atendimento' });
  const other = await t.createQueue({ name: 'Sem horário' });
  const week = Array.from({ length: 7 }, () => [{ from: '08:00', to: '18:00' }]);
  expect((await t.request({ method: 'PUT', url: `/api/business-hours/queues/${queue.id}`, token: t.adminToken, payload: { timezone: SP, week, holidays: [] } })).statusCode).toBe(200);

  // Local São Paulo times two and three days ago (fixed offset −03:00: São Paulo has no DST).
  const day = (daysAgo: number) => localDateAt(SP, Date.now() - daysAgo * 86_400_000);
  const sp = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00-03:00`);
  let provider = 0;
  const ticket = async (queueId: number, askedAt: Date, answeredAt: Date) => {
    const contact = await t.createContact();
    const { id } = await t.ctx.db
      .insertInto('tickets')
      .values({
        status: 'open',
        contactId: contact.id,
        whatsappId: w.id,
        userId: null,
        queueId,
        lastMessage: '',
        unreadMessages: 0,
        isGroup: 0,
        createdAt: askedAt.toISOString(),
        updatedAt: answeredAt.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [fromMe, at] of [
      [0, askedAt],
      [1, answeredAt],
    ] as const) {
      provider += 1;
      await t.ctx.db
        .insertInto('messages')
        .values({
          ticketId: id,
          whatsappId: w.id,
          providerId: `hours-${provider}`,
          contactId: fromMe ? null : contact.id,
          body: fromMe ? 'Olá!' : 'Oi',
          fromMe,
          read: 1,
          ack: 0,
          mediaType: null,
          mediaPath: null,
          quotedMsgId: null,
          isDeleted: 0,
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
        })
        .execute();
    }
  };
  const [before, after] = [day(3), day(2)];
  // Asked 17:30, answered 08:30 the next morning: 15 h by the clock, 30 + 30 = 60 min open.
  await ticket(queue.id, sp(before, '17:30'), sp(after, '08:30'));
  // Asked and answered while open: 20 min either way.
  await ticket(queue.id, sp(after, '10:00'), sp(after, '10:20'));
  // Asked 07:00 before opening, answered 08:10: 70 min by the clock, 10 min open.
  await ticket(queue.id, sp(after, '07:00'), sp(after, '08:10'));
  // A queue without hours (and no default): always open, 15 h either way.
  await ticket(other.id, sp(before, '17:30'), sp(after, '08:30'));

  type Row = { queueId: number | null; medianFirstResponseMs: number | null };
  const figures = async () => {
    const res = await t.request({ method: 'GET', url: '/api/dashboard?range=7d', token: t.adminToken });
    expect(res.statusCode).toBe(200);
    const rows: Row[] = res.json().queues;
    return { queue: rows.find((r) => r.queueId === queue.id)?.medianFirstResponseMs, other: rows.find((r) => r.queueId === other.id)?.medianFirstResponseMs };
  };
  // Off (the default): the clock's waits 20, 70 and 900 min, median 70.
  expect(await figures()).toEqual({ queue: minutes(70), other: minutes(900) });
  expect((await t.request({ method: 'PUT', url: '/api/settings/businessHoursInFigures', token: t.adminToken, payload: { value: 'enabled' } })).statusCode).toBe(200);
  // On: 10, 20 and 60 min of open time, median 20.
  expect(await figures()).toEqual({ queue: minutes(20), other: minutes(900) });
});
