/** The ticket-choice step on its own: reuse, reopen within the window, or a new pending ticket; one active ticket however they race. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { findOrCreateTicket } from './ticket-choice.js';

let t: TestApp;
let whatsappId: number;

beforeAll(async () => {
  t = await createTestApp();
  whatsappId = (await t.insertWhatsapp({ name: 'Escolha' })).id;
});
afterAll(async () => {
  await t.close();
});

const choose = (contactId: number, reopenWithinSeconds = 0) => findOrCreateTicket(t.ctx.db, { contactId, whatsappId, isGroup: false, reopenWithinSeconds });

async function closeTicket(id: number, minutesAgo: number): Promise<void> {
  await t.ctx.db
    .updateTable('tickets')
    .set({ status: 'closed', updatedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString() })
    .where('id', '=', id)
    .execute();
}

describe('ticket choice step', () => {
  it('creates a pending ticket for a first message, then reuses it', async () => {
    const contact = await t.createContact();
    const first = await choose(contact.id);
    expect(first).toMatchObject({ created: true, queueId: null, userId: null });
    const status = await t.ctx.db.selectFrom('tickets').select('status').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(status.status).toBe('pending');
    expect(await choose(contact.id)).toMatchObject({ id: first.id, created: false });
  });

  it('reopens a ticket closed within timeCreateNewTicket as pending and unassigned; after the window, a new one', async () => {
    const contact = await t.createContact();
    const first = await choose(contact.id);
    await t.ctx.db.updateTable('tickets').set({ userId: 1 }).where('id', '=', first.id).execute();
    await closeTicket(first.id, 5);
    const reopened = await choose(contact.id, 3600);
    expect(reopened).toMatchObject({ id: first.id, created: false, userId: null });
    expect(await t.ctx.db.selectFrom('tickets').select(['status', 'userId']).where('id', '=', first.id).executeTakeFirstOrThrow()).toEqual({ status: 'pending', userId: null });

    await closeTicket(first.id, 61);
    const fresh = await choose(contact.id, 3600);
    expect(fresh.created).toBe(true);
    expect(fresh.id).not.toBe(first.id);
  });

  it('gives one ticket to first messages that race', async () => {
    const contact = await t.createContact();
    const refs = await Promise.all(Array.from({ length: 8 }, () => choose(contact.id)));
    expect(new Set(refs.map((r) => r.id)).size).toBe(1);
    const active = await t.ctx.db.selectFrom('tickets').select('id').where('contactId', '=', contact.id).where('status', 'in', ['open', 'pending']).execute();
    expect(active).toHaveLength(1);
  });
});
