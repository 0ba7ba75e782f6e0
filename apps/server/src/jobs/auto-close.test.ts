import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { closeIdleTickets } from './auto-close.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('closes open tickets idle for more than 24 hours, and nothing else', async () => {
  const w = await t.insertWhatsapp();
  const make = async (status: string, hoursAgo: number) => {
    const contact = await t.createContact();
    const at = new Date(Date.now() - hoursAgo * 3600 * 1000).toISOString();
    const row = await t.ctx.db
      .insertInto('tickets')
      .values({ status, contactId: contact.id, whatsappId: w.id, userId: null, queueId: null, lastMessage: 'x', unreadMessages: 0, isGroup: 0, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const idle = await make('open', 25);
  const recent = await make('open', 23);
  const waiting = await make('pending', 48);

  expect(await closeIdleTickets(t.ctx)).toEqual([idle]);
  const statuses = await t.ctx.db.selectFrom('tickets').select(['id', 'status']).where('id', 'in', [idle, recent, waiting]).orderBy('id').execute();
  expect(statuses).toEqual([
    { id: idle, status: 'closed' },
    { id: recent, status: 'open' },
    { id: waiting, status: 'pending' },
  ]);
  expect(await closeIdleTickets(t.ctx)).toEqual([]);
});
