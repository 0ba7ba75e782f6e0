import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { findOrCreateTicket } from './inbound/ticket-choice.js';
import { emptyOutbox } from './inbound/batch-outbox.js';
import { readPipelineSettings } from './inbound/pipeline-settings.js';
import { writeInbound } from './inbound/write-inbound.js';
import { SimulatorDriver } from '../../channels/simulator/simulator.driver.js';
import { MEDIA_URL_STEP_SECONDS, MEDIA_URL_TTL_SECONDS, signedMediaUrl } from './media-store.js';

let t: TestApp;
let n = 0;
const number = () => `5511${String(900000000 + (n += 1) * 7919 + Math.floor(Math.random() * 1000))}`;

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function createConnection(body: Record<string, unknown> = {}): Promise<TWhatsapp> {
  const res = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Sim ${(n += 1)}`, channel: 'simulator', ...body } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function connected(body: Record<string, unknown> = {}): Promise<TWhatsapp> {
  const w = await createConnection(body);
  const scan = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
  expect(scan.statusCode).toBe(200);
  return w;
}

function inbound(whatsappId: number, payload: Record<string, unknown>) {
  return t.request({ method: 'POST', url: `/api/simulator/${whatsappId}/inbound`, token: t.adminToken, payload });
}

async function ticketsOf(contactNumber: string): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken });
  return (res.json().tickets as TTicket[]).filter((x) => x.contact.number === contactNumber);
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await t.request({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json().messages;
}

async function outbox(whatsappId: number): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${whatsappId}/outbox`, token: t.adminToken })).json();
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

describe('simulator connection', () => {
  it('shows a QR code, and turns CONNECTED when it is scanned', async () => {
    const w = await createConnection();
    const before = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: t.adminToken })).json<TWhatsapp>(),
      (x) => x.status === 'qrcode',
    );
    expect(before.qrcode).toMatch(/^SIM-/);
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/scan`, token: t.adminToken });
    const after = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/whatsapp/${w.id}`, token: t.adminToken })).json<TWhatsapp>(),
      (x) => x.status === 'CONNECTED',
    );
    expect(after.qrcode).toBe('');
  });

  it('refuses a simulator connection when SIMULATOR is off, and has no simulator routes', async () => {
    const off = await createTestApp();
    try {
      const res = await off.request({ method: 'POST', url: '/api/whatsapp', token: off.adminToken, payload: { name: 'Sim', channel: 'simulator' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_SIMULATOR_DISABLED' });
      expect((await off.request({ method: 'POST', url: '/api/simulator/1/scan', token: off.adminToken })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('requires a greeting with more than one queue', async () => {
    const [a, b] = [await t.createQueue(), await t.createQueue()];
    const res = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Two queues', channel: 'simulator', queueIds: [a.id, b.id] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_GREETING_REQUIRED' });
  });
});

describe('inbound pipeline', () => {
  it('turns a first message into a pending ticket with one unread message', async () => {
    const w = await connected();
    const from = number();
    expect((await inbound(w.id, { from, name: 'Maria José', body: 'Olá, preciso de ajuda' })).statusCode).toBe(200);
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: 'Olá, preciso de ajuda', whatsappId: w.id, contact: { name: 'Maria José', number: from } });
  });

  it('fetches the profile picture at the first message, not at every message', async () => {
    const w = await connected();
    const from = number();
    const driver = t.sessions.driver(w.id) as SimulatorDriver;
    driver.profilePictures.set(from, 'https://pps.example/avatar.jpg');
    const before = driver.profilePictureRequests;
    for (const body of ['one', 'two', 'three']) await inbound(w.id, { from, body });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.contact.profilePicUrl === 'https://pps.example/avatar.jpg' && x[0]?.lastMessage === 'three',
    );
    expect(ticket!.contact.profilePicUrl).toBe('https://pps.example/avatar.jpg');
    expect(driver.profilePictureRequests - before).toBe(1);
  });

  it('stores a redelivered message once', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { id: 'DUP-1', from, body: 'once' });
    await inbound(w.id, { id: 'DUP-1', from, body: 'once' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect((await messagesOf(ticket!.id)).filter((m) => m.body === 'once')).toHaveLength(1);
  });

  it('creates exactly one ticket when first messages of a new contact arrive at once', async () => {
    const w = await connected();
    const from = number();
    await Promise.all(Array.from({ length: 12 }, (_, i) => inbound(w.id, { from, body: `burst ${i}` })));
    const tickets = await waitFor(
      () => ticketsOf(from),
      (x) => x.length >= 1,
    );
    const ticket = tickets[0];
    const all = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.length === 12,
    );
    expect(all).toHaveLength(12);
    expect(await ticketsOf(from)).toHaveLength(1);
  });

  it('lets the database decide when ticket creations race, even around the per-chat order', async () => {
    const w = await connected();
    const contact = await t.createContact();
    const results = await Promise.all(Array.from({ length: 10 }, () => findOrCreateTicket(t.ctx.db, { contactId: contact.id, whatsappId: w.id, isGroup: false, reopenWithinSeconds: 0 })));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await t.ctx.db.selectFrom('tickets').select('id').where('contactId', '=', contact.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('writes a batch holding a redelivery and two first messages of a new contact as one ticket, each message once', async () => {
    const w = await connected();
    const driver = t.sessions.driver(w.id) as SimulatorDriver;
    const [from, other] = [number(), number()];
    const at = (providerId: string, sender: string, body: string) => ({
      providerId,
      chat: { kind: 'person' as const, number: sender },
      sender: { number: sender, name: 'Batch' },
      fromMe: false,
      body,
      timestamp: new Date(),
    });
    const appMessages: string[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message, created }) => created && appMessages.push(message.body));
    // Delivered in one turn of the event loop: the session manager hands them on as one batch.
    // Each delivery settles once its message is stored (a redelivery once it is found stored).
    await Promise.all([
      driver.deliver(at('BATCH-1', from, 'first')),
      driver.deliver(at('BATCH-2', from, 'second')),
      driver.deliver(at('BATCH-1', from, 'first')),
      driver.deliver(at('BATCH-3', other, 'someone else')),
    ]);
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.lastMessage === 'second',
    );
    off();
    expect(await ticketsOf(from)).toHaveLength(1);
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 2 });
    expect((await messagesOf(ticket!.id)).map((m) => m.body)).toEqual(['first', 'second']);
    expect(await ticketsOf(other)).toHaveLength(1);
    expect(appMessages.filter((b) => b === 'first' || b === 'second' || b === 'someone else').sort()).toEqual(['first', 'second', 'someone else']);
  });

  it('announces again a message stored by a node that stopped before announcing it, and a redelivery after the ticket closed reopens nothing', async () => {
    const w = await connected();
    const driver = t.sessions.driver(w.id) as SimulatorDriver;
    const from = number();
    const message = (providerId: string, body: string) => ({
      providerId,
      chat: { kind: 'person' as const, number: from },
      sender: { number: from, name: 'Parou' },
      fromMe: false,
      body,
      timestamp: new Date(),
    });
    // Committed and never announced: what a node leaves when it is killed between the two.
    const settings = await readPipelineSettings(t.ctx.db, w.id);
    await t.ctx.db.transaction().execute((trx) => writeInbound(trx, { whatsappId: w.id, prepared: { message: message('STOPPED-1', 'sem aviso'), mediaPath: null }, settings, outbox: emptyOutbox() }));
    const heard: { body: string; created: boolean; ticketId: number }[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message: m, ticket, created }) => heard.push({ body: m.body, created, ticketId: ticket.id }));
    await driver.deliver(message('STOPPED-1', 'sem aviso'));
    const [ticket] = await ticketsOf(from);
    // An update: the app shows it if it had not, and no second alert rings for it.
    await waitFor(
      async () => heard,
      (h) => h.some((x) => x.body === 'sem aviso'),
    );
    expect(heard.filter((x) => x.body === 'sem aviso')).toEqual([{ body: 'sem aviso', created: false, ticketId: ticket!.id }]);

    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
    await driver.deliver(message('STOPPED-1', 'sem aviso'));
    off();
    const after = await ticketsOf(from);
    expect(after.map((x) => ({ id: x.id, status: x.status }))).toEqual([{ id: ticket!.id, status: 'closed' }]);
    expect((await messagesOf(ticket!.id)).map((m) => m.body)).toEqual(['sem aviso']);
  });

  it("shows an edit of the chat's latest text in the ticket's list line, and an older one only in the chat", async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { id: 'LINE-1', from, body: 'primeira' });
    await inbound(w.id, { id: 'LINE-2', from, body: 'segunda com erro' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.lastMessage === 'segunda com erro',
    );
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/edit`, token: t.adminToken, payload: { id: 'LINE-1', body: 'primeira, editada' } })).statusCode).toBe(200);
    await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.some((x) => x.body === 'primeira, editada'),
    );
    expect((await ticketsOf(from))[0]).toMatchObject({ lastMessage: 'segunda com erro', updatedAt: ticket!.updatedAt });
    expect((await t.request({ method: 'POST', url: `/api/simulator/${w.id}/edit`, token: t.adminToken, payload: { id: 'LINE-2', body: 'segunda, corrigida' } })).statusCode).toBe(200);
    const [edited] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.lastMessage === 'segunda, corrigida',
    );
    // The ticket keeps its place in the lists.
    expect(edited?.updatedAt).toBe(ticket!.updatedAt);
  });

  it("takes the author's edit of a message as its new text, marked edited, but leaves a deleted message deleted", async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { id: 'EDIT-1', from, body: 'I need a refnud' });
    await inbound(w.id, { id: 'EDIT-2', from, body: 'gone' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.lastMessage === 'gone',
    );
    const updates: { body: string; isEdited: boolean }[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message, created }) => !created && updates.push({ body: message.body, isEdited: message.isEdited }));
    const edited = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/edit`, token: t.adminToken, payload: { id: 'EDIT-1', body: 'I need a refund' } });
    expect(edited.statusCode).toBe(200);
    await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.some((x) => x.isEdited),
    );
    // The live event follows the commit: wait for it too rather than race it.
    await waitFor(
      async () => updates.length,
      (n) => n > 0,
    );
    off();
    expect((await messagesOf(ticket!.id)).find((m) => m.body === 'I need a refund')).toMatchObject({ isEdited: true, isDeleted: false });
    expect(updates).toEqual([{ body: 'I need a refund', isEdited: true }]);

    await t.ctx.db.updateTable('messages').set({ isDeleted: 1 }).where('providerId', '=', 'EDIT-2').execute();
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/edit`, token: t.adminToken, payload: { id: 'EDIT-2', body: 'sneaky' } });
    await new Promise((r) => setTimeout(r, 200));
    const gone = (await messagesOf(ticket!.id)).find((m) => m.isDeleted);
    expect(gone).toMatchObject({ body: '', isEdited: false });
    const bad = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/edit`, token: t.adminToken, payload: { id: 'EDIT-1', body: '  ' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { body: 'REQUIRED' } });
  });

  it('fills in the name WhatsApp gives a contact still named by its number, never one an agent typed, and follows picture changes', async () => {
    const w = await connected();
    const [unnamed, named] = [number(), number()];
    await inbound(w.id, { from: unnamed, body: 'hi' });
    await inbound(w.id, { from: named, name: 'Push Name', body: 'hello' });
    await waitFor(
      () => ticketsOf(named),
      (x) => x.length === 1,
    );
    const [first] = await waitFor(
      () => ticketsOf(unnamed),
      (x) => x.length === 1,
    );
    expect(first!.contact.name).toBe(unnamed);
    const contactId = (await ticketsOf(named))[0]!.contact.id;
    expect((await t.request({ method: 'PUT', url: `/api/contacts/${contactId}`, token: t.adminToken, payload: { name: 'Typed by agent', number: named } })).statusCode).toBe(200);

    const update = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: `/api/simulator/${w.id}/contact`, token: t.adminToken, payload });
    expect((await update({ from: unnamed, name: 'Ana Souza', pictureUrl: 'https://pps.example/ana.jpg' })).statusCode).toBe(200);
    expect((await update({ from: named, name: 'New Push Name' })).statusCode).toBe(200);
    const [renamed] = await waitFor(
      () => ticketsOf(unnamed),
      (x) => x[0]?.contact.profilePicUrl === 'https://pps.example/ana.jpg',
    );
    expect(renamed!.contact.name).toBe('Ana Souza');
    expect((await ticketsOf(named))[0]!.contact.name).toBe('Typed by agent');

    await update({ from: unnamed, pictureUrl: null });
    await waitFor(
      () => ticketsOf(unnamed),
      (x) => x[0]?.contact.profilePicUrl === '',
    );
    // People the inbox has not met are not added by the network's contact sync.
    const stranger = number();
    await update({ from: stranger, name: 'Stranger' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await t.ctx.db.selectFrom('contacts').select('id').where('number', '=', stranger).execute()).toEqual([]);
    expect((await update({ from: 'abc' })).json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { from: 'DIGITS_ONLY' } });
  });

  it('reopens a recently closed ticket as pending, and opens a new one after timeCreateNewTicket', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'first' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'closed' } })).statusCode).toBe(200);
    await inbound(w.id, { from, body: 'again' });
    const reopened = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.status === 'pending' && x[0]?.lastMessage === 'again',
    );
    expect(reopened.map((x) => x.id)).toEqual([ticket!.id]);

    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'closed' } });
    await t.ctx.db
      .updateTable('tickets')
      .set({ updatedAt: new Date(Date.now() - 2 * 3600 * 1000).toISOString() })
      .where('id', '=', ticket!.id)
      .execute();
    await inbound(w.id, { from, body: 'much later' });
    const both = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 2 && x.every((y) => y.lastMessage !== ''),
    );
    expect(both.find((x) => x.id !== ticket!.id)).toMatchObject({ status: 'pending', lastMessage: 'much later' });
  });

  it('stores media privately and serves it through a signed address', async () => {
    const w = await connected();
    const from = number();
    const bytes = Buffer.from('fake-png-bytes-for-the-test');
    await inbound(w.id, { from, body: 'photo', media: { base64: bytes.toString('base64'), mimetype: 'image/png', filename: 'photo.png' } });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    const [message] = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.length === 1,
    );
    expect(message).toMatchObject({ mediaType: 'image', body: 'photo' });
    expect(message!.mediaUrl).toMatch(/^\/api\/media\/\d+\?expires=\d+&signature=/);
    // Valid for about an hour. Its expiry is rounded to a step, so a message presented again
    // within the step (a tick, an edit) keeps its address: the page does not download it again.
    const expiresOf = (url: string | null | undefined) => Number(new URL(url ?? '', 'http://x').searchParams.get('expires'));
    const nowSeconds = Date.now() / 1000;
    expect(expiresOf(message!.mediaUrl)).toBeGreaterThan(nowSeconds + MEDIA_URL_TTL_SECONDS - MEDIA_URL_STEP_SECONDS - 5);
    expect(expiresOf(message!.mediaUrl)).toBeLessThanOrEqual(nowSeconds + MEDIA_URL_TTL_SECONDS);
    const stepStart = Math.floor(nowSeconds / MEDIA_URL_STEP_SECONDS) * MEDIA_URL_STEP_SECONDS * 1000;
    const stepEnd = stepStart + MEDIA_URL_STEP_SECONDS * 1000;
    expect(signedMediaUrl(t.ctx, message!.id, stepStart, 'photo.png')).toBe(signedMediaUrl(t.ctx, message!.id, stepEnd - 1, 'photo.png'));
    expect(signedMediaUrl(t.ctx, message!.id, stepEnd, 'photo.png')).not.toBe(signedMediaUrl(t.ctx, message!.id, stepEnd - 1, 'photo.png'));
    const file = await t.request({ method: 'GET', url: message!.mediaUrl ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    const forged = await t.request({ method: 'GET', url: (message!.mediaUrl ?? '').replace(/signature=[^&]+/, 'signature=forged') });
    expect(forged.statusCode).toBe(403);
  });

  it('stores a location in the pipe format and a vcard as a contact card', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, location: { latitude: -23.5, longitude: -46.6, description: 'Av. Paulista' } });
    await inbound(w.id, { from, vcard: 'BEGIN:VCARD\nFN:Ana\nTEL:5511988887777\nEND:VCARD' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    const messages = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.length === 2,
    );
    const location = messages.find((m) => m.mediaType === 'location');
    expect(location?.body.split('|')).toHaveLength(3);
    expect(location?.body.split('|')[2]).toBe('Av. Paulista');
    expect(messages.find((m) => m.mediaType === 'vcard')?.body).toContain('FN:Ana');
  });

  it("stores a shared place's name and address on two lines, as WhatsApp's locationMessage carries them", async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, location: { latitude: -23.561414, longitude: -46.655881, name: 'MASP', address: 'Av. Paulista, 1578 - Bela Vista, São Paulo' } });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    const [location] = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.length === 1,
    );
    const [image, link, description] = location?.body.split('|') ?? [];
    expect(image).toContain('center=-23.561414,-46.655881');
    expect(link).toContain('q=-23.561414,-46.655881');
    expect(description).toBe('MASP\nAv. Paulista, 1578 - Bela Vista, São Paulo');
  });

  it('keeps messages sent from the phone itself as fromMe, without unread', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'sent from my phone', fromMe: true });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    expect(ticket!.unreadMessages).toBe(0);
    expect((await messagesOf(ticket!.id))[0]).toMatchObject({ fromMe: true, body: 'sent from my phone' });
  });

  it('links a quoted reply to the message it quotes', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { id: 'Q-ORIG', from, body: 'original' });
    await inbound(w.id, { from, body: 'reply', quotedId: 'Q-ORIG' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    const messages = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.length === 2,
    );
    expect(messages.find((m) => m.body === 'reply')?.quotedMsg).toMatchObject({ body: 'original', fromMe: false });
  });

  it('ignores group messages while CheckMsgIsGroup is enabled, and opens a group ticket when it is disabled', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'in the group', group: { id: 'grp-ignored', subject: 'Família' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(await ticketsOf('grp-ignored')).toHaveLength(0);

    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
    const announced: TMessage[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message }) => message.body === 'now it counts' && announced.push(message));
    await inbound(w.id, { from, name: 'Tia', body: 'now it counts', group: { id: 'grp-taken', subject: 'Vendas' } });
    const [ticket] = await waitFor(
      () => ticketsOf('grp-taken'),
      (x) => x.length === 1,
    );
    off();
    expect(ticket).toMatchObject({ isGroup: true, contact: { name: 'Vendas', isGroup: true } });
    const [stored] = await messagesOf(ticket!.id);
    expect(stored?.contact?.name).toBe('Tia');
    // The live event shows the message as a read of it does: the writer's name, no reactions.
    expect(announced).toEqual([stored]);
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'enabled' } });
  });

  it("sends nothing to a group while groups is disabled, and the connection's greeting and numbered queue menu once it is enabled", async () => {
    const sales = await t.createQueue({ name: `Group sales ${(n += 1)}`, greetingMessage: 'Vendas aqui' });
    const support = await t.createQueue({ name: `Group support ${(n += 1)}`, greetingMessage: 'Suporte aqui' });
    const w = await connected({ queueIds: [sales.id, support.id], greetingMessage: 'Olá, {{name}}! Escolha:' });
    const from = number();
    const setting = (key: string, value: string) => t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
    expect((await setting('CheckMsgIsGroup', 'disabled')).statusCode).toBe(200);
    try {
      // groups disabled (the default): the group's ticket opens and waits, nothing goes to the group.
      await inbound(w.id, { from, name: 'Tia', body: 'bom dia, grupo', group: { id: 'grp-quiet', subject: 'Família' } });
      const [quiet] = await waitFor(
        () => ticketsOf('grp-quiet'),
        (x) => x.length === 1,
      );
      expect(quiet).toMatchObject({ isGroup: true, status: 'pending', queueId: null });
      await inbound(w.id, { from, body: '1', group: { id: 'grp-quiet', subject: 'Família' } });
      await new Promise((r) => setTimeout(r, 200));
      expect(await outbox(w.id)).toEqual([]);
      expect((await ticketsOf('grp-quiet'))[0]?.queueId).toBeNull();
      expect((await messagesOf(quiet?.id ?? 0)).map((m) => m.fromMe)).toEqual([false, false]);

      // groups enabled: a group gets the greeting and the menu, and a number picks the queue.
      expect((await setting('groups', 'enabled')).statusCode).toBe(200);
      await inbound(w.id, { from, name: 'Tia', body: 'oi', group: { id: 'grp-menu', subject: 'Vendas da rua' } });
      const menu = await waitFor(
        () => outbox(w.id),
        (o) => o.some((m) => m.to === 'group:grp-menu'),
      );
      expect(menu.map((m) => [m.to, m.body])).toEqual([['group:grp-menu', `Olá, Vendas da rua! Escolha:\n\n*1* - ${sales.name}\n*2* - ${support.name}`]]);
      await inbound(w.id, { from, body: '2', group: { id: 'grp-menu', subject: 'Vendas da rua' } });
      const [routed] = await waitFor(
        () => ticketsOf('grp-menu'),
        (x) => x[0]?.queueId === support.id,
      );
      expect(routed).toMatchObject({ isGroup: true, queueId: support.id });
      const after = await waitFor(
        () => outbox(w.id),
        (o) => o.length === 2,
      );
      expect(after[1]).toMatchObject({ to: 'group:grp-menu', body: 'Suporte aqui' });
    } finally {
      await setting('groups', 'disabled');
      await setting('CheckMsgIsGroup', 'enabled');
    }
  });
});

describe('queues and greetings', () => {
  it('gives the only queue to the ticket', async () => {
    const queue = await t.createQueue({ greetingMessage: 'Welcome to {{queue}}, {{name}}!' });
    const w = await connected({ queueIds: [queue.id] });
    const from = number();
    await inbound(w.id, { from, name: 'Joana', body: 'hi' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.queueId === queue.id,
    );
    expect(ticket!.queue).toMatchObject({ id: queue.id });
    const sent = await waitFor(
      () => outbox(w.id),
      (o) => o.some((m) => m.to === from),
    );
    expect(sent.find((m) => m.to === from)?.body).toBe(`Welcome to ${queue.name}, Joana!`);
  });

  it('lists several queues as a numbered menu and assigns the one the contact picks', async () => {
    const sales = await t.createQueue({ name: 'A Sales', greetingMessage: 'Sales here' });
    const support = await t.createQueue({ name: 'B Support', greetingMessage: 'Support here, {{name}}' });
    const w = await connected({ queueIds: [sales.id, support.id], greetingMessage: '{{ms}}! Choose:' });
    const from = number();
    await inbound(w.id, { from, name: 'Rui', body: 'hello' });
    const menu = await waitFor(
      () => outbox(w.id),
      (o) => o.some((m) => m.to === from),
    );
    expect(menu[0]?.body).toMatch(/^(Bom dia|Boa tarde|Boa noite)! Choose:\n\n\*1\* - A Sales\n\*2\* - B Support$/);
    await inbound(w.id, { from, body: '2' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.queueId === support.id,
    );
    expect(ticket!.queueId).toBe(support.id);
    const after = await waitFor(
      () => outbox(w.id),
      (o) => o.filter((m) => m.to === from).length === 2,
    );
    expect(after[1]?.body).toBe('Support here, Rui');
  });
});

describe('messages API', () => {
  it('sends an agent reply through the connection and follows its acks', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'question' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    const refused = await t.request({ method: 'POST', url: `/api/messages/${ticket!.id}`, token: t.adminToken, payload: { body: 'too early' } });
    expect(refused.statusCode).toBe(400);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'open' } });
    const blank = await t.request({ method: 'POST', url: `/api/messages/${ticket!.id}`, token: t.adminToken, payload: { body: '   ' } });
    expect(blank.json()).toMatchObject({ error: 'ERR_VALIDATION' });

    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket!.id}`, token: t.adminToken, payload: { body: 'answer' } });
    expect(res.statusCode).toBe(201);
    expect((await outbox(w.id)).some((m) => m.to === from && m.body === 'answer')).toBe(true);
    const read = await waitFor(
      () => messagesOf(ticket!.id),
      (m) => m.find((x) => x.body === 'answer')?.ack === 3,
    );
    expect(read.find((x) => x.body === 'answer')).toMatchObject({ fromMe: true, ack: 3 });
  });

  it('clears the unread count when its agent opens the ticket and marks the chat read on the device', async () => {
    const w = await connected();
    const from = number();
    const { id } = (await inbound(w.id, { from, body: 'unread one' })).json();
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x[0]?.unreadMessages === 1,
    );
    // Looking into a pending ticket ('Spy') leaves it unread for whoever takes it.
    await messagesOf(ticket!.id);
    expect((await ticketsOf(from))[0]?.unreadMessages).toBe(1);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'open' } });
    await messagesOf(ticket!.id);
    expect((await ticketsOf(from))[0]?.unreadMessages).toBe(0);
    const driver = t.sessions.driver(w.id) as unknown as { readReceipts: string[] };
    expect(driver.readReceipts).toContain(id);
  });

  it('keeps the simulated edit and contact controls to admins', async () => {
    const w = await connected();
    const { token } = await t.createUser({ profile: 'user' });
    for (const [route, payload] of [
      ['edit', { id: 'X-1', body: 'novo' }],
      ['contact', { from: number(), name: 'Nome' }],
    ] as const) {
      const refused = await t.request({ method: 'POST', url: `/api/simulator/${w.id}/${route}`, token, payload });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('deletes own messages only', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'theirs' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'open' } });
    const [mine] = (await t.request({ method: 'POST', url: `/api/messages/${ticket!.id}`, token: t.adminToken, payload: { body: 'oops' } })).json<TMessage[]>();
    const theirs = (await messagesOf(ticket!.id)).find((m) => m.body === 'theirs');
    const refused = await t.request({ method: 'DELETE', url: `/api/messages/${theirs!.id}`, token: t.adminToken });
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await t.request({ method: 'DELETE', url: `/api/messages/${mine!.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await messagesOf(ticket!.id)).find((m) => m.id === mine!.id)).toMatchObject({ isDeleted: true });
    expect((await outbox(w.id)).some((m) => m.kind === 'delete')).toBe(true);
  });

  it('answers ERR_WAPP_NOT_INITIALIZED when the phone is offline', async () => {
    const w = await connected();
    const from = number();
    await inbound(w.id, { from, body: 'hi' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'open' } });
    await t.request({ method: 'POST', url: `/api/simulator/${w.id}/disconnect`, token: t.adminToken });
    const res = await t.request({ method: 'POST', url: `/api/messages/${ticket!.id}`, token: t.adminToken, payload: { body: 'anyone?' } });
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('sends the farewell when a ticket is resolved', async () => {
    const w = await connected({ farewellMessage: 'Bye {{name}}, ticket {{ticket_id}}' });
    const from = number();
    await inbound(w.id, { from, name: 'Leo', body: 'thanks' });
    const [ticket] = await waitFor(
      () => ticketsOf(from),
      (x) => x.length === 1 && x[0]?.lastMessage !== '',
    );
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'open' } });
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket!.id}`, token: t.adminToken, payload: { status: 'closed' } });
    // Sent after the answer, as queued outbound work.
    await waitFor(
      () => outbox(w.id),
      (items) => items.find((m) => m.to === from)?.body === `Bye Leo, ticket ${ticket!.id}`,
    );
  });
});

// Last in the file: its eleven new tickets would push older ones off the first page that the tests above read.
describe('inbound pipeline, many chats at once', () => {
  it("writes a batch of many chats side by side: one ticket per chat, each chat's messages once and in order, a sender shared by two chats once", async () => {
    const w = await connected();
    const driver = t.sessions.driver(w.id) as SimulatorDriver;
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
    const people = Array.from({ length: 9 }, () => number());
    // A new number who writes on her own chat and, in the same batch, in two groups: three
    // writers may each try to create her contact.
    const shared = people[0] as string;
    const groups = [`grp-side-${n}-a`, `grp-side-${n}-b`];
    const at = (providerId: string, chat: { kind: 'person'; number: string } | { kind: 'group'; groupId: string }, sender: string, body: string) => ({
      providerId,
      chat,
      sender: { number: sender, name: `Pessoa ${sender.slice(-4)}` },
      fromMe: false,
      body,
      timestamp: new Date(),
      ...(chat.kind === 'group' ? { group: { subject: `Grupo ${chat.groupId.slice(-1)}` } } : {}),
    });
    const deliveries = [];
    for (let round = 1; round <= 3; round += 1) {
      for (const [i, person] of people.entries()) deliveries.push(at(`SIDE-${person}-${round}`, { kind: 'person', number: person }, person, `p${i} m${round}`));
      for (const groupId of groups) deliveries.push(at(`SIDE-${groupId}-${round}`, { kind: 'group', groupId }, shared, `${groupId.slice(-1)} m${round}`));
    }
    // Delivered in one turn of the event loop: one batch, split by chat over the writers.
    await Promise.all(deliveries.map((d) => driver.deliver(d)));
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'enabled' } });

    for (const [i, person] of people.entries()) {
      const tickets = await ticketsOf(person);
      expect(tickets).toHaveLength(1);
      expect((await messagesOf(tickets[0]!.id)).map((m) => m.body)).toEqual([`p${i} m1`, `p${i} m2`, `p${i} m3`]);
    }
    for (const groupId of groups) {
      const tickets = await ticketsOf(groupId);
      expect(tickets).toHaveLength(1);
      const messages = await messagesOf(tickets[0]!.id);
      expect(messages.map((m) => m.body)).toEqual([1, 2, 3].map((round) => `${groupId.slice(-1)} m${round}`));
      expect(new Set(messages.map((m) => m.contact?.id)).size).toBe(1);
    }
    const sharedContacts = await t.ctx.db.selectFrom('contacts').select('id').where('number', '=', shared).execute();
    expect(sharedContacts).toHaveLength(1);
    const stored = await t.ctx.db.selectFrom('messages').select('providerId').where('providerId', 'like', 'SIDE-%').where('whatsappId', '=', w.id).execute();
    expect(stored).toHaveLength(deliveries.length);
  });
});
