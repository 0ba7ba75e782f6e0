/**
 * The write step and the steps around it on their own: settings read per batch, media stored
 * before the write (a failed download keeps the message), the write itself (redelivery, unread,
 * last message) and what a batch announces once committed.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/channel.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { mediaFile } from '../media-store.js';
import { emptyOutbox, publishOutbox } from './batch-outbox.js';
import { storeMedia } from './media.js';
import { readPipelineSettings } from './pipeline-settings.js';
import { writeInbound } from './write-inbound.js';

let t: TestApp;
let whatsappId: number;
let n = 0;

function message(overrides: Partial<InboundMessage> = {}): InboundMessage {
  n += 1;
  return {
    providerId: `WRITE-${n}-${Date.now()}`,
    chat: { kind: 'person', number: `5511970${String(n).padStart(6, '0')}` },
    sender: { number: '', name: `Cliente ${n}` },
    fromMe: false,
    body: `oi ${n}`,
    timestamp: new Date(),
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  whatsappId = (await t.insertWhatsapp({ name: 'Escrita' })).id;
});
afterAll(async () => {
  await t.close();
});

describe('pipeline settings step', () => {
  it('reads the group switches, the reopen window and the connection queues', async () => {
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
    await t.request({ method: 'PUT', url: '/api/settings/timeCreateNewTicket', token: t.adminToken, payload: { value: '3600' } });
    const queue = await t.createQueue({ name: 'Fila escrita' });
    await t.ctx.db.insertInto('whatsappQueues').values({ whatsappId, queueId: queue.id }).execute();
    const settings = await readPipelineSettings(t.ctx.db, whatsappId);
    expect(settings).toMatchObject({ acceptsGroups: true, routesGroups: false, reopenWithinSeconds: 3600 });
    expect(settings.queues.map((q) => q.id)).toEqual([queue.id]);
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'enabled' } });
    expect((await readPipelineSettings(t.ctx.db, whatsappId)).acceptsGroups).toBe(false);
    await t.ctx.db.deleteFrom('whatsappQueues').where('whatsappId', '=', whatsappId).execute();
  });
});

describe('media step', () => {
  it('stores the file of a message, and keeps the message without it when the download fails', async () => {
    const data = Buffer.from('%PDF-1.4 test');
    const stored = await storeMedia(t.ctx, whatsappId, message({ media: { mediaType: 'other', mimetype: 'application/pdf', filename: 'boleto.pdf', load: async () => data } }));
    expect(stored).toMatchObject({ mediaName: 'boleto.pdf', mediaSize: data.length });
    const file = mediaFile(t.ctx, stored.mediaPath ?? '');
    expect(file && fs.readFileSync(file)).toEqual(data);

    const errors: unknown[] = [];
    const off = t.ctx.events.subscribe('channel.error', ({ error }) => errors.push(error));
    const failed = await storeMedia(t.ctx, whatsappId, message({ media: { mediaType: 'image', mimetype: 'image/jpeg', filename: 'x.jpg', load: () => Promise.reject(new Error('gone')) } }));
    off();
    expect(failed).toEqual({ mediaPath: null, mediaName: 'x.jpg', mediaSize: null });
    expect(errors).toHaveLength(1);
    expect(await storeMedia(t.ctx, whatsappId, message())).toEqual({ mediaPath: null, mediaName: null, mediaSize: null });
  });
});

describe('write step', () => {
  it('writes the message once, counts it unread and shows it as the last message; a redelivery changes nothing', async () => {
    const settings = await readPipelineSettings(t.ctx.db, whatsappId);
    const m = message({ body: 'Quero um orçamento' });
    const outbox = emptyOutbox();
    await writeInbound(t.ctx.db, { whatsappId, prepared: { message: m, mediaPath: null }, settings, outbox });
    expect(outbox.stored).toHaveLength(1);
    const ticketId = outbox.stored[0]?.ticketId ?? 0;
    const again = emptyOutbox();
    await writeInbound(t.ctx.db, { whatsappId, prepared: { message: m, mediaPath: null }, settings, outbox: again });
    expect(again.stored).toHaveLength(0);
    // Left for the announcement after the commit: another writer may have stored it unannounced.
    expect(again.redelivered).toEqual([m.providerId]);
    const rows = await t.ctx.db.selectFrom('messages').select('id').where('providerId', '=', m.providerId).execute();
    expect(rows).toHaveLength(1);
    const ticket = await t.ctx.db.selectFrom('tickets').select(['unreadMessages', 'lastMessage', 'status']).where('id', '=', ticketId).executeTakeFirstOrThrow();
    expect(ticket).toEqual({ unreadMessages: 1, lastMessage: 'Quero um orçamento', status: 'pending' });
  });

  it('an own message from the phone is read and not counted unread', async () => {
    const settings = await readPipelineSettings(t.ctx.db, whatsappId);
    const outbox = emptyOutbox();
    await writeInbound(t.ctx.db, { whatsappId, prepared: { message: message({ fromMe: true, body: 'Enviado do celular' }), mediaPath: null }, settings, outbox });
    const row = outbox.stored[0];
    expect(row).toMatchObject({ fromMe: true, read: true, ack: 1 });
    const ticket = await t.ctx.db
      .selectFrom('tickets')
      .select('unreadMessages')
      .where('id', '=', row?.ticketId ?? 0)
      .executeTakeFirstOrThrow();
    expect(ticket.unreadMessages).toBe(0);
  });
});

describe('batch announcements', () => {
  it('announce a batch only when asked, after the write: the contact, then each message with its ticket, then the ticket', async () => {
    const settings = await readPipelineSettings(t.ctx.db, whatsappId);
    const heard: string[] = [];
    const offs = [
      t.ctx.events.subscribe('contact.saved', () => heard.push('contact')),
      t.ctx.events.subscribe('message.saved', () => heard.push('message')),
      t.ctx.events.subscribe('ticket.saved', () => heard.push('ticket')),
    ];
    const outbox = emptyOutbox();
    await writeInbound(t.ctx.db, { whatsappId, prepared: { message: message(), mediaPath: null }, settings, outbox });
    // Written, not yet announced: a rollback could still take it back.
    expect(heard).toEqual([]);
    await publishOutbox(t.ctx, t.sessions, whatsappId, outbox, new Map());
    for (const off of offs) off();
    expect(heard).toEqual(['contact', 'message', 'ticket']);
  });
});
