import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it("counts the tickets of the user's queues by status, and today's new tickets per hour from 08:00 to 19:00 and the whole day's count", async () => {
  const w = await t.insertWhatsapp();
  const mine = await t.createQueue();
  const others = await t.createQueue();
  const { token } = await t.createUser({ queueIds: [mine.id] });
  const today10 = new Date();
  today10.setHours(10, 15, 0, 0);
  const yesterday = new Date(today10.getTime() - 24 * 3600 * 1000);
  const make = async (status: string, queueId: number | null, createdAt: Date) => {
    const contact = await t.createContact();
    await t.ctx.db
      .insertInto('tickets')
      .values({
        status,
        contactId: contact.id,
        whatsappId: w.id,
        userId: null,
        queueId,
        lastMessage: '',
        unreadMessages: 0,
        isGroup: 0,
        createdAt: createdAt.toISOString(),
        updatedAt: createdAt.toISOString(),
      })
      .execute();
  };
  await make('open', mine.id, today10);
  await make('pending', mine.id, today10);
  await make('pending', null, yesterday);
  await make('closed', others.id, today10);
  // Before and after office hours: in the day's count, not in the 08:00–19:00 chart.
  const early = new Date(today10);
  early.setHours(6, 30, 0, 0);
  const late = new Date(today10);
  late.setHours(21, 5, 0, 0);
  await make('closed', mine.id, early);
  await make('closed', null, late);

  const res = await t.request({ method: 'GET', url: '/api/dashboard', token });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.counters).toEqual({ open: 1, pending: 2, closed: 2 });
  expect(body.today).toHaveLength(12);
  expect(body.today[0]).toEqual({ hour: '08:00', count: 0 });
  expect(body.today.find((h: { hour: string }) => h.hour === '10:00')).toEqual({ hour: '10:00', count: 2 });
  expect(body.today.at(-1)).toEqual({ hour: '19:00', count: 0 });
  expect(body.newToday).toBe(4);

  const admin = (await t.request({ method: 'GET', url: '/api/dashboard', token: t.adminToken })).json();
  expect(admin.counters).toEqual({ open: 1, pending: 2, closed: 3 });
  expect(admin.newToday).toBe(5);
  expect((await t.request({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
});
