/** The chat-contact step on its own: a person or a group, and a group's writer, created on first sight. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/channel.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { emptyOutbox } from './batch-outbox.js';
import { upsertChatContact, upsertChatContactWithState, upsertSender } from './chat-contact.js';
import { insertRating } from '../../csat/csat.repository.js';
import { insertActiveTicketOnce, updateTicket } from '../../tickets/tickets.repository.js';
import { nowIso } from '../../../core/time.js';

let t: TestApp;
const base: InboundMessage = {
  providerId: 'X',
  chat: { kind: 'person', number: '5511966660001' },
  sender: { number: '5511966660001', name: 'Duda' },
  fromMe: false,
  body: 'oi',
  timestamp: new Date(),
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('chat contact step', () => {
  it('creates a person once, named as they call themself, and announces it as created', async () => {
    const outbox = emptyOutbox();
    const first = await upsertChatContact(t.ctx.db, base, outbox);
    expect(first).toMatchObject({ name: 'Duda', created: true });
    expect(outbox.contacts.get(first.id)).toBe(true);
    const again = await upsertChatContact(t.ctx.db, { ...base, sender: { number: base.chat.kind === 'person' ? base.chat.number : '', name: 'Outro Nome' } }, emptyOutbox());
    // The name they give later does not replace the one they are known by.
    expect(again).toEqual({ id: first.id, name: 'Duda', created: false });
    expect((await t.request({ method: 'GET', url: `/api/contacts/${first.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Duda', number: '5511966660001' });
  });

  it('names a contact still named by its number with the name the person gave, and says it was renamed', async () => {
    const number = '5511966660002';
    const created = await upsertChatContact(t.ctx.db, { ...base, chat: { kind: 'person', number }, sender: { number } }, emptyOutbox());
    const outbox = emptyOutbox();
    expect(created.name).toBe(number);
    const renamed = await upsertChatContact(t.ctx.db, { ...base, chat: { kind: 'person', number }, sender: { number, name: 'Edu' } }, outbox);
    expect(renamed).toEqual({ id: created.id, name: 'Edu', created: false });
    expect(outbox.contacts.get(created.id)).toBe(false);
    expect((await t.request({ method: 'GET', url: `/api/contacts/${created.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Edu' });
  });

  it('makes a group its own contact, and its writer a contact of their own; own messages have no writer', async () => {
    const group: InboundMessage = { ...base, chat: { kind: 'group', groupId: '120363000000000001' }, group: { subject: 'Clientes VIP' }, sender: { number: '5511966660003', name: 'Fê' } };
    const outbox = emptyOutbox();
    const contact = await upsertChatContact(t.ctx.db, group, outbox);
    const writer = await upsertSender(t.ctx.db, group, outbox);
    expect(writer).toMatchObject({ name: 'Fê' });
    expect(writer?.id).not.toBe(contact.id);
    expect((await t.request({ method: 'GET', url: `/api/contacts/${contact.id}`, token: t.adminToken })).json()).toMatchObject({ name: 'Clientes VIP', isGroup: true });
    expect(await upsertSender(t.ctx.db, { ...group, fromMe: true }, outbox)).toBeNull();
    expect(await upsertSender(t.ctx.db, base, outbox)).toBeNull();
  });

  it('reads, with the contact, its open or pending ticket on the connection and its latest satisfaction question there; a new contact has neither', async () => {
    const [w, other] = [(await t.insertWhatsapp({ name: 'Estado' })).id, (await t.insertWhatsapp({ name: 'Outra' })).id];
    const number = '5511966660077';
    const chat = { ...base, chat: { kind: 'person' as const, number }, sender: { number, name: 'Lia' } };
    const first = await upsertChatContactWithState(t.ctx.db, chat, emptyOutbox(), w);
    expect(first).toMatchObject({ name: 'Lia', created: true, active: null, latestRatingId: null });
    const now = nowIso();
    const closed = (await insertActiveTicketOnce(t.ctx.db, { contactId: first.id, whatsappId: w, isGroup: false, status: 'open', userId: null }, now)) ?? 0;
    await updateTicket(t.ctx.db, closed, { status: 'closed' }, now);
    const older = await insertRating(t.ctx.db, { ticketId: closed, whatsappId: w, contactId: first.id, userId: null, queueId: null, askedAt: '2026-01-01T10:00:00.000Z' });
    const latest = await insertRating(t.ctx.db, { ticketId: closed, whatsappId: w, contactId: first.id, userId: null, queueId: null, askedAt: '2026-01-02T10:00:00.000Z' });
    await insertRating(t.ctx.db, { ticketId: closed, whatsappId: other, contactId: first.id, userId: null, queueId: null, askedAt: '2026-01-03T10:00:00.000Z' });
    expect(latest).not.toBe(older);
    // A closed ticket is not the chat's ticket; the question of another connection is not its question.
    expect(await upsertChatContactWithState(t.ctx.db, chat, emptyOutbox(), w)).toMatchObject({ id: first.id, created: false, active: null, latestRatingId: latest });
    const pending = (await insertActiveTicketOnce(t.ctx.db, { contactId: first.id, whatsappId: w, isGroup: false, status: 'pending', userId: null }, now)) ?? 0;
    await insertActiveTicketOnce(t.ctx.db, { contactId: first.id, whatsappId: other, isGroup: false, status: 'open', userId: null }, now);
    expect(await upsertChatContactWithState(t.ctx.db, chat, emptyOutbox(), w)).toMatchObject({ active: { id: pending, queueId: null, userId: null }, latestRatingId: latest });
  });
});
