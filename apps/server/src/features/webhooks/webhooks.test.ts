/**
 * Outgoing webhooks against a receiver on 127.0.0.1 that checks every signature, answers 500 for
 * a while, and goes away and comes back on the same port: every event arrives, signed, in order
 * per ticket; what the window gives up on is 'failed' and can be resent; pings; validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TWebhook, TWebhookDelivery, TWebhookDeliveryDetail, TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { WEBHOOK_EVENTS } from '@zapdesk/shared/webhooks';
import { ADMIN, createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { deliveries, register } from '../../test/webhook-kit.js';
import { startReceiver, type Received, type Receiver } from '../../test/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
let phone: number;
let hook: TWebhookWithSecret;
let number = 0;

/** A customer writes from `from` (a new ticket the first time). */
async function inbound(from: string, body: string): Promise<void> {
  const res = await t.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: t.adminToken, payload: { from, name: `Cliente ${from.slice(-4)}`, body } });
  expect(res.statusCode).toBe(200);
}

async function ticketOf(from: string): Promise<TTicket> {
  return waitFor(
    async () =>
      (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets.find((x) => x.contact.number === from),
    (found) => found !== undefined,
  ) as Promise<TTicket>;
}

/** The ticket a delivery is about (ticket.* and message.*), from its body. */
function ticketIdOf(r: { event: string; data: unknown }): number | undefined {
  const data = r.data as { id?: number; ticketId?: number };
  if (r.event.startsWith('ticket.')) return data.id;
  if (r.event.startsWith('message.')) return data.ticketId;
  return undefined;
}

/** The first arrival of each delivery, in arrival order. */
function firstArrivals(list: Received[]): Received[] {
  const seen = new Set<string>();
  return list.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

/** Per ticket, the deliveries arrived in the order they were stored (the list is newest first). */
async function expectOrderPerTicket(app: TestApp, webhookId: number, arrivals: Received[]): Promise<void> {
  const stored = (await deliveries(app, webhookId)).reverse();
  const details = await Promise.all(
    stored.map(async (d) => (await app.request({ method: 'GET', url: `/api/webhooks/${webhookId}/deliveries/${d.id}`, token: app.adminToken })).json<TWebhookDeliveryDetail>()),
  );
  const byTicket = new Map<number, string[]>();
  for (const d of details) {
    const ticketId = ticketIdOf({ event: d.event, data: (JSON.parse(d.body) as { data: unknown }).data });
    if (ticketId !== undefined) byTicket.set(ticketId, [...(byTicket.get(ticketId) ?? []), d.id]);
  }
  for (const [ticketId, ids] of byTicket) {
    const arrived = firstArrivals(arrivals)
      .filter((r) => ticketIdOf(r) === ticketId && ids.includes(r.id))
      .map((r) => r.id);
    expect(arrived, `ticket ${ticketId}`).toEqual(ids.slice(0, arrived.length));
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({ SIMULATOR: 'on', ALLOW_PRIVATE_WEBHOOK_URLS: 'on', WEBHOOK_RETRY_BASE_MS: '200', PUBLIC_URL: 'https://zapdesk.example' });
  hook = await register(t, receiver.url);
  receiver.secrets.add(hook.secret);
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Webhooks phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t?.close();
  await receiver?.stop();
});

describe('an endpoint', () => {
  it('is registered with a generated secret shown once, listed without it, changed, and refused when its address or events are bad', async () => {
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook.secretHint).toBe(hook.secret.slice(-4));
    const list = (await t.request({ method: 'GET', url: '/api/webhooks', token: t.adminToken })).json<TWebhook[]>();
    expect(list.find((w) => w.id === hook.id)).toMatchObject({ url: receiver.url, enabled: true, events: [...WEBHOOK_EVENTS] });
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    // The secret is sealed at rest.
    const row = await t.ctx.db.selectFrom('webhooks').select('secret').where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(hook.secret);
    expect(row.secret.startsWith('enc:v1:')).toBe(true);

    for (const url of ['ftp://example.com/x', 'http://user:pass@example.com/hook', 'not a url', 'javascript:alert(1)']) {
      const res = await t.request({ method: 'POST', url: '/api/webhooks', token: t.adminToken, payload: { url, events: ['ticket.created'] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: string }>().error).toBe('ERR_WEBHOOK_URL_INVALID');
    }
    for (const payload of [
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['ticket.exploded'] },
      { url: receiver.url, events: ['ticket.created'], secret: 'short' },
      { events: ['ticket.created'] },
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/webhooks', token: t.adminToken, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ error: string }>().error).toBe('ERR_VALIDATION');
    }
    // Link-local (cloud metadata) stays refused even with private addresses allowed.
    const metadata = await t.request({ method: 'POST', url: '/api/webhooks', token: t.adminToken, payload: { url: 'http://169.254.169.254/latest', events: ['ticket.created'] } });
    expect(metadata.json<{ error: string }>().error).toBe('ERR_WEBHOOK_URL_FORBIDDEN');

    const other = await register(t, 'https://receiver.invalid/a', ['contact.created']);
    const given = await t.request({
      method: 'POST',
      url: '/api/webhooks',
      token: t.adminToken,
      payload: { url: 'https://receiver.invalid/b', events: ['contact.created'], secret: 'a-secret-the-integration-has' },
    });
    expect(given.json<TWebhookWithSecret>().secret).toBe('a-secret-the-integration-has');
    const changed = await t.request({ method: 'PUT', url: `/api/webhooks/${other.id}`, token: t.adminToken, payload: { enabled: false, events: ['contact.updated', 'contact.created'] } });
    expect(changed.json<TWebhook>()).toMatchObject({ enabled: false, events: ['contact.created', 'contact.updated'] });
    const rotated = (await t.request({ method: 'POST', url: `/api/webhooks/${other.id}/secret`, token: t.adminToken })).json<TWebhookWithSecret>();
    expect(rotated.secret).not.toBe(other.secret);
    expect((await t.request({ method: 'DELETE', url: `/api/webhooks/${other.id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await t.request({ method: 'DELETE', url: `/api/webhooks/${given.json<TWebhook>().id}`, token: t.adminToken })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/webhooks/${other.id}/deliveries`, token: t.adminToken })).json<{ error: string }>().error).toBe('ERR_NO_WEBHOOK_FOUND');
    const missing = await t.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000`, token: t.adminToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error: string }>().error).toBe('ERR_NO_WEBHOOK_DELIVERY_FOUND');
    // Each change is in the audit log, without the secret.
    const audit = await t.ctx.db.selectFrom('auditEvents').select(['action', 'detail']).where('action', 'like', 'webhooks.%').execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['webhooks.create', 'webhooks.update', 'webhooks.secret_rotate', 'webhooks.delete']));
    expect(JSON.stringify(audit)).not.toContain(rotated.secret);
  });

  it('delivers every event, signed, in order per ticket, through errors and while the receiver is away', async () => {
    const connected = await waitFor(
      async () => receiver.delivered().filter((r) => r.event === 'connection.status'),
      (list) => list.some((r) => (r.data as { status: string }).status === 'CONNECTED'),
    );
    expect(connected[0]?.data).toMatchObject({ id: phone, name: 'Webhooks phone' });

    // The receiver fails for a while: a ticket's first delivery is retried, the later ones wait behind it.
    receiver.answer(500);
    const from = `551198${String(process.pid % 1000).padStart(3, '0')}${String((number += 1)).padStart(4, '0')}`;
    await inbound(from, 'primeira');
    await waitFor(
      async () => receiver.received.filter((r) => r.answered === 500).length,
      (n) => n >= 3,
    );
    await inbound(from, 'segunda');
    await inbound(from, 'terceira');
    const ticket = await ticketOf(from);
    const pending = await waitFor(
      () => deliveries(t, hook.id, '&status=pending'),
      (list) => list.length >= 5 && list.some((d) => d.attempts >= 2 && d.responseStatus === 500 && d.error === 'HTTP 500'),
    );
    expect(pending.length).toBeGreaterThanOrEqual(5);
    receiver.answer(200);
    await waitFor(
      () => deliveries(t, hook.id, '&status=pending'),
      (list) => list.length === 0,
    );
    const texts = firstArrivals(receiver.delivered())
      .filter((r) => r.event === 'message.created' && ticketIdOf(r) === ticket.id)
      .map((r) => (r.data as { body: string }).body);
    expect(texts).toEqual(['primeira', 'segunda', 'terceira']);
    expect(receiver.delivered().some((r) => r.event === 'ticket.created' && ticketIdOf(r) === ticket.id)).toBe(true);
    expect(receiver.delivered().some((r) => r.event === 'contact.created' && (r.data as { number: string }).number === from)).toBe(true);

    // The receiver goes away; an agent takes the ticket, labels it, answers and closes it; the receiver comes back.
    await receiver.stop();
    const { user: admin } = await t.login(ADMIN.email, ADMIN.password);
    const taken = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open', userId: admin.id } });
    expect(taken.statusCode, taken.body).toBe(200);
    const label = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name: 'VIP', color: '#E53935' } });
    const labelled = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/labels`, token: t.adminToken, payload: { labelId: label.json<{ id: number }>().id } });
    expect(labelled.statusCode, labelled.body).toBe(200);
    const reply = await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: t.adminToken, payload: { body: 'Olá, posso ajudar?' } });
    expect(reply.statusCode, reply.body).toBe(201);
    const renamed = await t.request({ method: 'PUT', url: `/api/contacts/${ticket.contactId}`, token: t.adminToken, payload: { name: 'Cliente Renomeado', number: from, email: '' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await waitFor(
      () => deliveries(t, hook.id, '&status=pending'),
      (list) => list.some((d) => d.error === 'connection refused'),
    );
    const closed = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(closed.statusCode, closed.body).toBe(200);
    await receiver.start();
    await waitFor(
      () => deliveries(t, hook.id, '&status=pending'),
      (list) => list.length === 0,
      30_000,
    );

    const all = await deliveries(t, hook.id);
    expect(all.every((d) => d.status === 'delivered')).toBe(true);
    const arrived = new Set(receiver.delivered().map((r) => r.id));
    for (const d of all) expect(arrived.has(d.id), `${d.event} ${d.id}`).toBe(true);
    expect(receiver.received.every((r) => r.validSignature && r.id === r.deliveryHeader && r.event === r.eventHeader)).toBe(true);
    const events = new Set(
      receiver
        .delivered()
        .filter((r) => ticketIdOf(r) === ticket.id || (r.data as { number?: string }).number === from)
        .map((r) => r.event),
    );
    expect([...events].sort()).toEqual(['contact.created', 'contact.updated', 'message.ack', 'message.created', 'ticket.closed', 'ticket.created', 'ticket.updated']);
    const updates = receiver
      .delivered()
      .filter((r) => r.event === 'ticket.updated' && ticketIdOf(r) === ticket.id)
      .map((r) => r.data as TTicket);
    expect(updates.some((u) => u.userId === admin.id && u.status === 'open')).toBe(true);
    expect(updates.some((u) => u.labels.some((l) => l.name === 'VIP'))).toBe(true);
    expect(receiver.delivered().filter((r) => r.event === 'ticket.closed' && ticketIdOf(r) === ticket.id)).toHaveLength(1);
    const outgoing = receiver.delivered().find((r) => r.event === 'message.created' && (r.data as { body: string }).body === 'Olá, posso ajudar?');
    expect(outgoing?.data).toMatchObject({ fromMe: true, ticketId: ticket.id });
    await expectOrderPerTicket(t, hook.id, receiver.received);

    // The page's detail: the exact body sent and the start of the answer.
    const one = all[0] as TWebhookDelivery;
    const detail = (await t.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries/${one.id}`, token: t.adminToken })).json<TWebhookDeliveryDetail>();
    expect(receiver.delivered().find((r) => r.id === one.id)?.body).toBe(detail.body);
    expect(detail).toMatchObject({ status: 'delivered', responseStatus: 200, responseBody: 'ok', error: null });
    expect(detail.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('pings on demand, and resends a delivery under the same id', async () => {
    const ping = await t.request({ method: 'POST', url: `/api/webhooks/${hook.id}/ping`, token: t.adminToken });
    expect(ping.statusCode).toBe(201);
    const delivery = ping.json<TWebhookDelivery>();
    expect(delivery).toMatchObject({ event: 'ping', status: 'pending', webhookId: hook.id });
    await waitFor(
      async () => receiver.delivered().filter((r) => r.id === delivery.id),
      (list) => list.length === 1,
    );
    const read = async () => (await t.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries/${delivery.id}`, token: t.adminToken })).json<TWebhookDelivery>();
    await waitFor(read, (d) => d.status === 'delivered');
    const before = receiver.delivered().filter((r) => r.id === delivery.id).length;
    const resent = await t.request({ method: 'POST', url: `/api/webhooks/${hook.id}/deliveries/${delivery.id}/resend`, token: t.adminToken });
    expect(resent.statusCode).toBe(200);
    expect(resent.json<TWebhookDelivery>()).toMatchObject({ id: delivery.id, status: 'pending' });
    await waitFor(
      async () => receiver.delivered().filter((r) => r.id === delivery.id).length,
      (n) => n === before + 1,
    );
    // The outcome is written once the receiver's answer is in.
    const after = await waitFor(read, (d) => d.attempts === 2);
    expect(after).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('gives a message with a file an absolute media address the receiver can fetch for 48 hours', async () => {
    const from = `551196${String(process.pid % 1000).padStart(3, '0')}${String((number += 1)).padStart(4, '0')}`;
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const sent = await t.request({
      method: 'POST',
      url: `/api/simulator/${phone}/inbound`,
      token: t.adminToken,
      payload: { from, name: 'Foto', body: '', media: { base64: png, mimetype: 'image/png', filename: 'foto.png' } },
    });
    expect(sent.statusCode).toBe(200);
    const arrived = await waitFor(
      async () => receiver.delivered().find((r) => r.event === 'message.created' && (r.data as { mediaUrl?: string | null }).mediaUrl),
      (found) => found !== undefined,
    );
    const mediaUrl = new URL((arrived?.data as { mediaUrl: string }).mediaUrl);
    expect(mediaUrl.origin).toBe('https://zapdesk.example');
    const expires = Number(mediaUrl.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(47 * 60 * 60 * 1000);
    // The same address, asked of the server without signing in, gives the file.
    const file = await t.request({ method: 'GET', url: `${mediaUrl.pathname}${mediaUrl.search}` });
    expect(file.statusCode).toBe(200);
  });

  it('tells when a bulk send finished, once', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: phone, minDelay: 0, maxDelay: 0, message: 'Promoção', numbers: '5511987650001' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ campaign: { id: number } }>().campaign.id;
    const finished = await waitFor(
      async () => receiver.delivered().filter((r) => r.event === 'campaign.finished' && (r.data as { id: number }).id === id),
      (list) => list.length > 0,
    );
    expect(finished[0]?.data).toMatchObject({ id, status: 'completed' });
    // The campaign's later changes (its message's acks) tell nothing more.
    await waitFor(
      () => deliveries(t, hook.id, '&status=pending'),
      (list) => list.length === 0,
    );
    expect(receiver.delivered().filter((r) => r.event === 'campaign.finished' && (r.data as { id: number }).id === id)).toHaveLength(1);
  });

  it('keeps notes private: a note is never sent', async () => {
    const from = `551197${String(process.pid % 1000).padStart(3, '0')}${String((number += 1)).padStart(4, '0')}`;
    await inbound(from, 'oi');
    const ticket = await ticketOf(from);
    await waitFor(async () => receiver.delivered().some((r) => r.event === 'message.created' && ticketIdOf(r) === ticket.id), Boolean);
    const note = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/notes`, token: t.adminToken, payload: { body: 'nota interna secreta' } });
    expect(note.statusCode, note.body).toBeLessThan(300);
    // Something after the note, on the same ticket: once it arrived, the note would have too.
    await inbound(from, 'depois da nota');
    await waitFor(async () => receiver.delivered().some((r) => (r.data as { body?: string } | undefined)?.body === 'depois da nota'), Boolean);
    expect(receiver.received.some((r) => r.body.includes('nota interna secreta'))).toBe(false);
  });
});
