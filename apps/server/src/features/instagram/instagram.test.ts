/**
 * Instagram as an inbox channel against a fake Graph API on 127.0.0.1, with webhook deliveries
 * signed as Meta signs them (X-Hub-Signature-256): the connection and its write-only secrets,
 * the subscription check, signatures, inbound text, image, story replies and shares into tickets
 * once each, a reaction onto the message it reacts to, agents' answers through the Send API, the 24-hour window, direct sends by username,
 * and the token never in an answer or the server's log.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TRecipient } from '@zapdesk/shared/campaigns';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { FakeGraph, PNG } from '../../test/fake-graph.js';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { serverArgs } from '../../test/server-process.js';

const ACCOUNT = { id: '17841400000000001', username: 'lojadamaria', token: 'IGAAT-secret-access-token-0123456789' };
const APP_SECRET = 'app-secret-abcdef0123456789';
const VERIFY_TOKEN = 'verify-token-zapdesk-42';
const PUBLIC_URL = 'https://atendimento.loja.example';
const SECRETS = [ACCOUNT.token, APP_SECRET, VERIFY_TOKEN];
const ANA = { id: '6789000000000001', username: 'ana.cliente', name: 'Ana Cliente' };
const BRUNO = { id: '6789000000000002', username: 'bruno_b', name: 'Bruno B' };

let t: TestApp;
let graph: FakeGraph;
let connection: TWhatsapp;
let apiToken = '';

/** Every answer of this suite is checked: no secret of the connection ever leaves the server. */
async function call(options: Parameters<TestApp['request']>[0]) {
  const res = await t.request(options);
  for (const secret of SECRETS) expect(res.body, `${String(options.method)} ${typeof options.url === 'string' ? options.url : ''}`).not.toContain(secret);
  return res;
}

function signature(body: string, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

let mids = 0;
function textEvent(from: { id: string }, text: string, extra: Record<string, unknown> = {}) {
  mids += 1;
  return { sender: { id: from.id }, recipient: { id: ACCOUNT.id }, timestamp: Date.now(), message: { mid: `aWdfZAG1faXRlbTo${mids}`, text, ...extra } };
}

async function deliver(messaging: unknown[], options: { secret?: string; signatureHeader?: string | null } = {}) {
  const body = JSON.stringify({ object: 'instagram', entry: [{ time: Date.now(), id: ACCOUNT.id, messaging }] });
  const header = options.signatureHeader === null ? {} : { 'x-hub-signature-256': options.signatureHeader ?? signature(body, options.secret) };
  return call({ method: 'POST', url: '/api/webhooks/instagram', headers: { 'content-type': 'application/json', ...header }, payload: body });
}

async function ticketOf(igsid: string): Promise<TTicket | undefined> {
  const list = (await call({ method: 'GET', url: '/api/tickets?status=pending&showAll=true', token: t.adminToken })).json<{ tickets: TTicket[] }>();
  const open = (await call({ method: 'GET', url: '/api/tickets?status=open&showAll=true', token: t.adminToken })).json<{ tickets: TTicket[] }>();
  return [...list.tickets, ...open.tickets].find((ticket) => ticket.contact.number === igsid);
}

async function messagesOf(ticketId: number): Promise<TMessage[]> {
  return (await call({ method: 'GET', url: `/api/messages/${ticketId}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
}

beforeAll(async () => {
  graph = await new FakeGraph(ACCOUNT).start();
  graph.people.push(ANA, BRUNO);
  t = await createTestApp({ INSTAGRAM_GRAPH_URL: graph.url, ALLOW_PRIVATE_MEDIA_URLS: 'true', PUBLIC_URL, INSTAGRAM_PACE_SECONDS: '1-1' });
  apiToken = (await call({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>().find((s) => s.key === 'userApiToken')?.value ?? '';
});
afterAll(async () => {
  await t.close();
  await graph.stop();
});

describe('an Instagram connection', () => {
  it('needs the account id and the three secrets, and refuses a wrong token with a clear state', async () => {
    const missing = await call({
      method: 'POST',
      url: '/api/whatsapp',
      token: t.adminToken,
      payload: { name: 'Instagram', channel: 'instagram', instagram: { accountId: ACCOUNT.id, accessToken: ACCOUNT.token } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_IG_CONFIG_REQUIRED', fields: { 'instagram.appSecret': 'REQUIRED', 'instagram.verifyToken': 'REQUIRED' } });
    const wrong = await call({
      method: 'POST',
      url: '/api/whatsapp',
      token: t.adminToken,
      payload: { name: 'Instagram errado', channel: 'instagram', instagram: { accountId: ACCOUNT.id, accessToken: 'not-the-token', appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN } },
    });
    expect(wrong.statusCode).toBe(201);
    const refused = await waitFor(
      async () => (await call({ method: 'GET', url: `/api/whatsapp/${wrong.json<TWhatsapp>().id}`, token: t.adminToken })).json<TWhatsapp>(),
      (w) => w.status === 'DISCONNECTED',
    );
    expect(refused.instagram).toMatchObject({ tokenValid: false, error: 'ERR_IG_TOKEN' });
    expect((await call({ method: 'DELETE', url: `/api/whatsapp/${refused.id}`, token: t.adminToken })).statusCode).toBe(204);
  });

  it('connects with a valid token, shows the username, and never answers with a secret', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/whatsapp',
      token: t.adminToken,
      payload: { name: 'Instagram da loja', channel: 'instagram', instagram: { accountId: ACCOUNT.id, accessToken: ACCOUNT.token, appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN } },
    });
    expect(res.statusCode).toBe(201);
    connection = await waitFor(
      async () => (await call({ method: 'GET', url: `/api/whatsapp/${res.json<TWhatsapp>().id}`, token: t.adminToken })).json<TWhatsapp>(),
      (w) => w.status === 'CONNECTED',
    );
    expect(connection.instagram).toEqual({
      accountId: ACCOUNT.id,
      username: ACCOUNT.username,
      accessTokenSet: true,
      appSecretSet: true,
      verifyTokenSet: true,
      tokenValid: true,
      webhookVerifiedAt: null,
      error: null,
    });
    // The token went in the Authorization header, never in an address.
    const me = graph.requests.find((r) => r.path === '/me' && r.headers.authorization === `Bearer ${ACCOUNT.token}`);
    expect(me?.query.get('access_token')).toBeNull();
    // Saving the connection again without the secrets keeps them.
    const edited = await call({
      method: 'PUT',
      url: `/api/whatsapp/${connection.id}`,
      token: t.adminToken,
      payload: { name: 'Instagram da loja', isDefault: true, instagram: { accountId: ACCOUNT.id } },
    });
    expect(edited.statusCode).toBe(200);
    await waitFor(
      async () => (await call({ method: 'GET', url: `/api/whatsapp/${connection.id}`, token: t.adminToken })).json<TWhatsapp>(),
      (w) => w.status === 'CONNECTED',
    );
    // At rest, the secrets are sealed.
    const stored = await t.ctx.db.selectFrom('channelAuth').select('value').where('whatsappId', '=', connection.id).execute();
    for (const row of stored) for (const secret of SECRETS) expect(row.value).not.toContain(secret);
  });

  it("answers Meta's subscription check with the verify token only", async () => {
    const wrong = await call({ method: 'GET', url: '/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444' });
    expect(wrong.statusCode).toBe(403);
    const ok = await call({ method: 'GET', url: `/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const state = (await call({ method: 'GET', url: `/api/whatsapp/${connection.id}`, token: t.adminToken })).json<TWhatsapp>();
    expect(state.instagram?.webhookVerifiedAt).not.toBeNull();
  });
});

describe('inbound', () => {
  it('refuses a delivery without a signature or signed with another secret, storing nothing', async () => {
    expect((await deliver([textEvent(ANA, 'sem assinatura')], { signatureHeader: null })).statusCode).toBe(401);
    expect((await deliver([textEvent(ANA, 'outro segredo')], { secret: 'another-app-secret' })).statusCode).toBe(401);
    expect((await deliver([textEvent(ANA, 'malformada')], { signatureHeader: 'sha256=abc' })).statusCode).toBe(401);
    expect(await ticketOf(ANA.id)).toBeUndefined();
  });

  it('checks the signature before reading the body: unsigned junk is 401, signed junk is 400 with its code, never a 500', async () => {
    const post = (body: string, header: Record<string, string>) => call({ method: 'POST', url: '/api/webhooks/instagram', headers: { 'content-type': 'application/json', ...header }, payload: body });
    const junk = [
      'null',
      '{"entry":1}',
      '[]',
      '"text"',
      '{"a": ',
      '{"object":"instagram","entry":[null]}',
      '{"object":"instagram","entry":[{"id":1,"messaging":{}}]}',
      `{"object":"instagram","entry":[{"id":"${ACCOUNT.id}","messaging":"x"}]}`,
      `{"object":"instagram","entry":[{"id":"${ACCOUNT.id}","messaging":[null]}]}`,
      `{"object":"instagram","entry":[{"id":"${ACCOUNT.id}","messaging":[{"sender":{"id":"${ANA.id}"},"message":{"mid":"m-junk","attachments":5}}]}]}`,
      `{"object":"instagram","entry":[{"id":"${ACCOUNT.id}","messaging":[{"sender":{"id":"${ANA.id}"},"message":{"mid":"m-junk2","text":7}}]}]}`,
    ];
    for (const body of junk) {
      const unsigned = await post(body, {});
      expect(unsigned.statusCode, `unsigned ${body}`).toBe(401);
      expect(unsigned.json(), `unsigned ${body}`).toMatchObject({ error: 'ERR_WEBHOOK_SIGNATURE' });
      const wrong = await post(body, { 'x-hub-signature-256': signature(body, 'another-app-secret') });
      expect(wrong.statusCode, `wrongly signed ${body}`).toBe(401);
      const signed = await post(body, { 'x-hub-signature-256': signature(body) });
      expect(signed.statusCode, `signed ${body}`).toBe(400);
      expect(signed.json(), `signed ${body}`).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    expect(await ticketOf(ANA.id)).toBeUndefined();
  });

  it('turns text, an image, a story reply and a share into one ticket with its messages, named from the Graph API, each stored once', async () => {
    const text = textEvent(ANA, 'Oi! Vocês entregam em Campinas?');
    const image = { ...textEvent(ANA, ''), message: { mid: 'aWdfZAG1faXRlbTpimage', attachments: [{ type: 'image', payload: { url: `${graph.url}/cdn/photo.png` } }] } };
    const story = textEvent(ANA, 'Amei esse!', { reply_to: { story: { url: `${graph.url}/cdn/story.mp4`, id: '1790' } } });
    const share = { ...textEvent(ANA, ''), message: { mid: 'aWdfZAG1faXRlbTpshare', attachments: [{ type: 'share', payload: { url: 'https://www.instagram.com/p/Cabc123/' } }] } };
    const reaction = { sender: { id: ANA.id }, recipient: { id: ACCOUNT.id }, timestamp: Date.now(), reaction: { mid: text.message.mid, action: 'react', reaction: 'love', emoji: '❤️' } };
    const res = await deliver([text, image, story, share, reaction]);
    expect(res.statusCode).toBe(200);
    // Answered only once stored: the ticket is there already.
    const ticket = await ticketOf(ANA.id);
    expect(ticket).toMatchObject({ whatsappId: connection.id, contact: { name: ANA.name, number: ANA.id } });
    // The picture too comes from the Graph API.
    await waitFor(
      async () => (await call({ method: 'GET', url: `/api/contacts/${ticket?.contactId ?? 0}`, token: t.adminToken })).json<{ profilePicUrl: string }>().profilePicUrl,
      (url) => url === `https://scontent.cdninstagram.com/v/t51/${ANA.id}.jpg`,
    );
    const messages = await messagesOf(ticket?.id ?? 0);
    expect(messages.map((m) => [m.body, m.mediaType])).toEqual([
      ['Oi! Vocês entregam em Campinas?', null],
      ['', 'image'],
      [`↩️ Story: ${graph.url}/cdn/story.mp4\nAmei esse!`, null],
      ['🔗 https://www.instagram.com/p/Cabc123/', null],
    ]);
    const picture = messages[1]?.mediaUrl ?? '';
    const file = await call({ method: 'GET', url: picture });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // Meta delivers again: nothing new is stored.
    expect((await deliver([text, image])).statusCode).toBe(200);
    expect(await messagesOf(ticket?.id ?? 0)).toHaveLength(4);
    // The reaction sits on the message it reacts to, and goes when taken away.
    const reactionsOnFirst = async () => (await messagesOf(ticket?.id ?? 0))[0]?.reactions;
    await waitFor(reactionsOnFirst, (r) => r?.length === 1);
    expect(await reactionsOnFirst()).toEqual([{ emoji: '❤️', fromMe: false, senderName: ANA.name }]);
    expect((await deliver([{ ...reaction, reaction: { mid: text.message.mid, action: 'unreact' } }])).statusCode).toBe(200);
    await waitFor(reactionsOnFirst, (r) => r?.length === 0);
  });
});

describe('outbound', () => {
  it("sends an agent's answer through the Send API with the right body, and its echo is not stored twice", async () => {
    const ticket = await ticketOf(ANA.id);
    const ticketId = ticket?.id ?? 0;
    await call({ method: 'PUT', url: `/api/tickets/${ticketId}`, token: t.adminToken, payload: { status: 'open' } });
    const res = await call({ method: 'POST', url: `/api/messages/${ticketId}`, token: t.adminToken, payload: { body: 'Entregamos sim! 🚚' } });
    expect(res.statusCode).toBe(201);
    const sent = graph.sends().filter((s) => s.message?.text?.includes('Entregamos sim'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.recipient).toEqual({ id: ANA.id });
    expect(sent[0]?.message?.text).toContain('Entregamos sim! 🚚');
    const request = graph.requests.find((r) => r.body.includes('Entregamos sim'));
    expect(request?.path).toBe(`/${ACCOUNT.id}/messages`);
    expect(request?.headers.authorization).toBe(`Bearer ${ACCOUNT.token}`);
    const mine = (await messagesOf(ticketId)).filter((m) => m.fromMe);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ sendStatus: 'sent' });
  });

  it('sends a picture by its signed public address', async () => {
    const ticketId = (await ticketOf(ANA.id))?.id ?? 0;
    const boundary = 'zdgboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`);
    const payload = Buffer.concat([head, PNG, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await call({ method: 'POST', url: `/api/messages/${ticketId}`, token: t.adminToken, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBe(201);
    const attachment = graph.sends().find((s) => s.message?.attachment)?.message?.attachment;
    expect(attachment?.type).toBe('image');
    expect(attachment?.payload.url.startsWith(`${PUBLIC_URL}/api/media/`)).toBe(true);
    // The address is the server's signed one: it serves the file (asked here without the host).
    const local = new URL(attachment?.payload.url ?? '');
    const file = await call({ method: 'GET', url: `${local.pathname}${local.search}` });
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it('shows the 24-hour window error on the message when Instagram refuses it', async () => {
    await deliver([textEvent(BRUNO, 'Oi, tudo bem?')]);
    const ticketId = (await ticketOf(BRUNO.id))?.id ?? 0;
    await call({ method: 'PUT', url: `/api/tickets/${ticketId}`, token: t.adminToken, payload: { status: 'open' } });
    graph.windowClosed.add(BRUNO.id);
    const res = await call({ method: 'POST', url: `/api/messages/${ticketId}`, token: t.adminToken, payload: { body: 'Desculpe a demora' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_IG_WINDOW_CLOSED' });
    const failed = (await messagesOf(ticketId)).find((m) => m.fromMe);
    expect(failed).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_IG_WINDOW_CLOSED', body: expect.stringContaining('Desculpe a demora') });
    graph.windowClosed.delete(BRUNO.id);
  });
});

describe('direct messages by username', () => {
  it('/sendDirect reaches a user who wrote to the account, and records one who never did as not sent', async () => {
    const known = await call({ method: 'POST', url: '/api/sendDirect', payload: { userIg: '@Ana.Cliente', message: 'Sua encomenda saiu!', token: apiToken } });
    expect(known.statusCode).toBe(202);
    const unknown = await call({ method: 'POST', url: '/api/sendDirect', payload: { userIg: 'nunca.escreveu', message: 'Oi', token: apiToken } });
    expect(unknown.statusCode).toBe(202);
    expect((await call({ method: 'POST', url: '/api/sendDirect', payload: { userIg: 'ana.cliente', message: 'Oi' } })).statusCode).toBe(401);
    const done = await waitFor(
      async () => (await call({ method: 'GET', url: `/api/campaigns/${known.json<{ id: number }>().id}`, token: t.adminToken })).json<TCampaign>(),
      (c) => c.status === 'completed',
    );
    expect(done).toMatchObject({ whatsappId: connection.id, counts: { sent: 1 } });
    expect(graph.sends().some((s) => s.recipient?.id === ANA.id && s.message?.text === 'Sua encomenda saiu!')).toBe(true);
    const notSent = (await call({ method: 'GET', url: `/api/campaigns/${unknown.json<{ id: number }>().id}/recipients`, token: t.adminToken })).json<{ recipients: TRecipient[] }>().recipients;
    expect(notSent).toMatchObject([{ input: 'nunca.escreveu', status: 'invalid', error: 'ERR_IG_UNKNOWN_USER' }]);
    // The message is in Ana's ticket, where the agent sees it.
    const ticketId = (await ticketOf(ANA.id))?.id ?? 0;
    expect((await messagesOf(ticketId)).some((m) => m.fromMe && m.body === 'Sua encomenda saiu!')).toBe(true);
  });

  it('refuses a bulk send of phone numbers on an Instagram connection', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: connection.id, numbers: '5511988887777', message: 'Oi', minDelay: 1, maxDelay: 2 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_IG_NOT_SUPPORTED', fields: { whatsappId: 'INVALID' } });
  });

  it('/InstaDirect sends to many users at the pace, one message at a time', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/instagram/direct',
      token: t.adminToken,
      payload: { whatsappId: connection.id, users: 'ana.cliente\n@bruno_b\n@ana.cliente\nquem.e', message: 'Promoção {{name}}!' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ campaign: TCampaign; dropped: { duplicates: number } }>();
    expect(created.dropped.duplicates).toBe(1);
    expect(created.campaign).toMatchObject({ minDelay: 1, maxDelay: 1, total: 3 });
    const done = await waitFor(
      async () => (await call({ method: 'GET', url: `/api/campaigns/${created.campaign.id}`, token: t.adminToken })).json<TCampaign>(),
      (c) => c.status === 'completed',
      30_000,
    );
    expect(done.counts).toMatchObject({ sent: 2, invalid: 1 });
    const texts = graph.sends().map((s) => s.message?.text);
    expect(texts).toContain(`Promoção ${ANA.name}!`);
    expect(texts).toContain(`Promoção ${BRUNO.name}!`);
  });
});

describe('the server log', () => {
  it('never holds the access token, the app secret or the verify token, at the most detailed log level', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-ig-log-'));
    const root = path.resolve(import.meta.dirname, '../../../../..');
    const env = {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'trace',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'log@test.local',
      ADMIN_PASSWORD: 'log-pass-123',
      WEB_DIST: path.join(dataDir, 'no-web'),
      INSTAGRAM_GRAPH_URL: graph.url,
    };
    const child = spawn(process.execPath, serverArgs(), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const base = await waitFor(
        async () => /is running at (http:\/\/\S+)/.exec(output)?.[1],
        (url): url is string => url !== undefined,
        60_000,
      );
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'log@test.local', password: 'log-pass-123' }),
      });
      const { token } = (await login.json()) as { token: string };
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const created = await fetch(`${base}/api/whatsapp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'IG', channel: 'instagram', instagram: { accountId: ACCOUNT.id, accessToken: ACCOUNT.token, appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN } }),
      });
      expect(created.status).toBe(201);
      await fetch(`${base}/api/webhooks/instagram?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=7`);
      const body = JSON.stringify({ object: 'instagram', entry: [{ id: ACCOUNT.id, time: Date.now(), messaging: [textEvent(ANA, 'log?')] }] });
      const delivered = await fetch(`${base}/api/webhooks/instagram`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(body) }, body });
      expect(delivered.status).toBe(200);
      await fetch(`${base}/api/webhooks/instagram`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(body, 'wrong') }, body });
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect(output).toContain('/api/webhooks/instagram');
    // The verify token travels in Meta's check address: the log shows the path without the query's value.
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  }, 120_000);
});
