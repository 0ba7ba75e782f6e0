/**
 * SMS and calls through @vonage/server-sdk against a fake Vonage on 127.0.0.1 that speaks its
 * REST API (SMS API, Voice API with a JWT signed by the application's key, account balance):
 * requests checked field by field, pacing, retries, credentials, signed delivery receipts and
 * call events, the tool API, and what a contact was sent.
 */
import { createHash, createHmac, generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TRecipient } from '@zapdesk/shared/campaigns';
import type { TPhoneSend } from '@zapdesk/shared/vonage';
import { FakeVonage, type Received } from '../../test/fake-vonage.js';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { smsSignature } from './vonage-webhooks.js';

const API_KEY = 'abcd1234';
const API_SECRET = 'Secret-42-vonage';
const APP_ID = '0f8c2e64-8d3a-4c63-9b1e-3f2a1c0d9e77';
const SIGNATURE_SECRET = 'signature-secret-0123456789abcdef';
const PUBLIC_URL = 'https://atendimento.loja.example';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });

let t: TestApp;
let vonage: FakeVonage;
let apiToken: string;

async function setting(key: string, value: string): Promise<void> {
  const res = await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
  expect(res.statusCode, `${key}`).toBe(200);
}

async function campaign(id: number, done: (c: TCampaign) => boolean): Promise<TCampaign> {
  return waitFor(async () => (await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: t.adminToken })).json<TCampaign>(), done, 30_000);
}

async function recipients(id: number): Promise<TRecipient[]> {
  return (await t.request({ method: 'GET', url: `/api/campaigns/${id}/recipients`, token: t.adminToken })).json<{ recipients: TRecipient[] }>().recipients;
}

/** The SMS API request as the SDK sends it: JSON, with the credentials in the Basic header. */
function smsBody(request: Received | undefined): Record<string, string> {
  return JSON.parse(request?.body ?? '{}') as Record<string, string>;
}

const finished = (c: TCampaign) => c.status === 'completed' || c.status === 'paused';

/** A JWT as Vonage signs call events: HS256 with the signature secret, over this body. */
function callEventToken(body: string, secret = SIGNATURE_SECRET, claims: Record<string, unknown> = {}): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = { iat: Math.floor(Date.now() / 1000), jti: randomUUID(), api_key: API_KEY, application_id: APP_ID, payload_hash: createHash('sha256').update(body).digest('hex'), ...claims };
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined)))}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

function callEventBody(event: Record<string, string>): string {
  return JSON.stringify({ direction: 'outbound', timestamp: new Date().toISOString(), ...event });
}

async function callEvent(event: Record<string, string>, options: { token?: string; body?: string } = {}) {
  const body = options.body ?? callEventBody(event);
  return t.request({
    method: 'POST',
    url: '/api/webhooks/vonage/call',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token ?? callEventToken(body)}` },
    payload: body,
  });
}

/** A delivery receipt as Vonage posts it (JSON), signed with SHA-256 HMAC; a parameter given as undefined is left out. */
async function smsReceipt(params: Record<string, string | undefined>, options: { secret?: string; tamper?: boolean } = {}) {
  const all: Record<string, string | undefined> = {
    msisdn: '5511988887777',
    to: 'Loja',
    'network-code': '72405',
    price: '0.05',
    'err-code': '0',
    'message-timestamp': '2026-11-25 10:00:00',
    timestamp: String(Math.floor(Date.now() / 1000)),
    nonce: randomUUID(),
    ...params,
  };
  const full = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  full.sig = smsSignature(full, options.secret ?? SIGNATURE_SECRET);
  if (options.tamper) full.status = 'delivered';
  return t.request({ method: 'POST', url: '/api/webhooks/vonage/sms', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(full) });
}

beforeAll(async () => {
  vonage = await new FakeVonage({ apiKey: API_KEY, apiSecret: API_SECRET }).start();
  t = await createTestApp({ VONAGE_REST_URL: vonage.url, VONAGE_API_URL: vonage.url, PHONE_PACE_SECONDS: '1-1', PUBLIC_URL });
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
  apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
});
afterAll(async () => {
  await t.close();
  await vonage.stop();
});

describe('Vonage credentials', () => {
  it('says what is missing before the credentials are set, then tests them with the account balance (admins only)', async () => {
    const missing = await t.request({ method: 'POST', url: '/api/vonage/balance', token: t.adminToken });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_VONAGE_NOT_CONFIGURED' });
    await setting('vonageApiKey', API_KEY);
    await setting('vonageApiSecret', 'wrong-secret');
    const refused = await t.request({ method: 'POST', url: '/api/vonage/balance', token: t.adminToken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_VONAGE_AUTH' });
    await setting('vonageApiSecret', API_SECRET);
    const ok = await t.request({ method: 'POST', url: '/api/vonage/balance', token: t.adminToken });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ value: 12.5, autoReload: false });
    const user = await t.createUser();
    expect((await t.request({ method: 'POST', url: '/api/vonage/balance', token: user.token })).statusCode).toBe(403);
  });

  it('keeps the secrets write-only and refuses a malformed key, application id or sender', async () => {
    await setting('vonageApiId', APP_ID);
    // Pasted into a one-line field, the key loses its line breaks: the calls below still sign with it.
    await setting('vonagePrivateKey', privateKey.replace(/\n/g, ''));
    await setting('vonageSignatureSecret', SIGNATURE_SECRET);
    const res = await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken });
    for (const secret of [API_SECRET, SIGNATURE_SECRET, 'PRIVATE KEY']) expect(res.body).not.toContain(secret);
    const values = Object.fromEntries(res.json<{ key: string; value: string }[]>().map((s) => [s.key, s.value]));
    expect(values).toMatchObject({ vonageApiSecret: '********', vonagePrivateKey: '********', vonageSignatureSecret: '********', vonageApiId: APP_ID });
    for (const [key, value] of [
      ['vonageApiId', 'not-a-uuid'],
      ['vonagePrivateKey', 'just text'],
      ['vonagePrivateKey', '-----BEGIN PRIVATE KEY-----bm90IGEga2V5-----END PRIVATE KEY-----'],
      ['vonageFrom', 'A sender name too long'],
    ] as const) {
      const bad = await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
      expect(bad.statusCode, key).toBe(400);
    }
  });
});

describe('SMS', () => {
  it('refuses a send without a sender, or without numbers, and stores nothing', async () => {
    const noSender = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { numbers: '5511988887777', text: 'Oi' } });
    expect(noSender.statusCode).toBe(400);
    expect(noSender.json()).toMatchObject({ error: 'ERR_VONAGE_NO_SENDER' });
    const noNumbers = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '\n \n', text: 'Oi' } });
    expect(noNumbers.json()).toMatchObject({ error: 'ERR_NO_RECIPIENTS' });
    const noText = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '5511988887777', text: '  ' } });
    expect(noText.statusCode).toBe(400);
    const list = (await t.request({ method: 'GET', url: '/api/campaigns', token: t.adminToken })).json<{ campaigns: TCampaign[] }>();
    expect(list.campaigns.filter((c) => c.kind === 'sms')).toHaveLength(0);
    expect(vonage.requests('/sms/json')).toHaveLength(0);
  });

  it('sends an SMS campaign one number at a time, about the pace apart, as the SDK does, and records each id', async () => {
    await setting('vonageFrom', '5511900001111');
    const before = vonage.requests('/sms/json').length;
    const res = await t.request({
      method: 'POST',
      url: '/api/sms',
      token: t.adminToken,
      payload: { numbers: '+55 11 98888-7777\n551187776666\nnão é número\n5511988887777', text: 'Promoção: 20% hoje!' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ campaign: TCampaign; dropped: { duplicates: number } }>();
    expect(created.campaign).toMatchObject({ kind: 'sms', whatsappId: null, sender: '5511900001111', total: 3 });
    expect(created.dropped.duplicates).toBe(1);
    const done = await campaign(created.campaign.id, finished);
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ sent: 2, invalid: 1 });
    const sent = vonage.requests('/sms/json').slice(before);
    expect(sent).toHaveLength(2);
    const first = smsBody(sent[0]);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.headers['content-type']).toContain('application/json');
    expect(sent[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${API_KEY}:${API_SECRET}`).toString('base64')}`);
    expect(first).toEqual({ from: '5511900001111', to: '5511988887777', text: 'Promoção: 20% hoje!', type: 'unicode', callback: `${PUBLIC_URL}/api/webhooks/vonage/sms` });
    // A Brazilian mobile typed without its 9 gets it.
    expect(smsBody(sent[1]).to).toBe('5511987776666');
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    const rows = await recipients(created.campaign.id);
    const ids = rows.filter((r) => r.status === 'sent').map((r) => r.providerId);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => typeof id === 'string' && id.length === 36)).toBe(true);
    // The numbers sent to are contacts now.
    const contacts = (await t.request({ method: 'GET', url: '/api/contacts?searchParam=5511987776666', token: t.adminToken })).json<{ contacts: { number: string }[] }>();
    expect(contacts.contacts.map((c) => c.number)).toEqual(['5511987776666']);
  });

  it('sends plain ASCII as GSM text', async () => {
    const before = vonage.requests('/sms/json').length;
    const res = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '5511970000001', text: 'Sale today' } });
    await campaign(res.json<{ campaign: TCampaign }>().campaign.id, finished);
    const body = smsBody(vonage.requests('/sms/json')[before]);
    expect(body.type).toBe('text');
    expect(body.from).toBe('Loja');
  });

  it('tries a throttled or unreachable send again, and gives up after three tries; a refused number fails at once', async () => {
    // A retried number is asked again after the pace, before the next number.
    vonage.smsAnswers.push({ status: 200, body: { 'message-count': '1', messages: [{ status: '1', 'error-text': 'Throttled' }] } });
    vonage.smsAnswers.push({ status: 200, body: { 'message-count': '1', messages: [{ to: '5511970000002', 'message-id': randomUUID(), status: '0' }] } });
    vonage.smsAnswers.push({ status: 500, body: {} }, { status: 503, body: {} }, { status: 502, body: {} });
    vonage.smsAnswers.push({ status: 200, body: { 'message-count': '1', messages: [{ status: '6', 'error-text': 'Unroutable message - rejected' }] } });
    const before = vonage.requests('/sms/json').length;
    const res = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '5511970000002\n5511970000003\n5511970000004', text: 'Oi' } });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    const done = await campaign(id, finished);
    expect(done.counts).toMatchObject({ sent: 1, failed: 2 });
    const rows = await recipients(id);
    const byNumber = Object.fromEntries(rows.map((r) => [r.number, r]));
    // Throttled once, then sent: the same number asked twice.
    const asked = vonage
      .requests('/sms/json')
      .slice(before)
      .map((r) => smsBody(r).to);
    expect(asked.filter((n) => n === '5511970000002')).toHaveLength(2);
    expect(byNumber['5511970000002']).toMatchObject({ status: 'sent' });
    // Three server errors: three tries, then failed.
    expect(asked.filter((n) => n === '5511970000003')).toHaveLength(3);
    expect(byNumber['5511970000003']).toMatchObject({ status: 'failed', error: 'ERR_VONAGE_UNAVAILABLE' });
    expect(asked.filter((n) => n === '5511970000004')).toHaveLength(1);
    expect(byNumber['5511970000004']).toMatchObject({ status: 'failed', error: 'ERR_VONAGE_REFUSED' });
  });

  it('pauses a campaign whose credentials Vonage refuses, sends nothing meanwhile, and goes on once they are fixed and it is resumed', async () => {
    await setting('vonageApiSecret', 'wrong-secret');
    vonage.smsAnswers.push({ status: 200, body: { 'message-count': '1', messages: [{ status: '4', 'error-text': 'Bad Credentials' }] } });
    const res = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '5511970000005\n5511970000006', text: 'Oi' } });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    const paused = await campaign(id, (c) => c.status === 'paused');
    expect(paused).toMatchObject({ pauseReason: 'ERR_VONAGE_AUTH', counts: { queued: 2 } });
    await setting('vonageApiSecret', API_SECRET);
    expect((await t.request({ method: 'POST', url: `/api/campaigns/${id}/resume`, token: t.adminToken })).statusCode).toBe(200);
    const done = await campaign(id, (c) => c.status === 'completed');
    expect(done.counts).toMatchObject({ sent: 2 });
  });

  it('updates each recipient from signed delivery receipts and refuses unsigned or tampered ones', async () => {
    const res = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: '5511970000007\n5511970000008\n5511970000015', text: 'Recibo' } });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    await campaign(id, finished);
    const [one, two, three] = await recipients(id);
    const delivered = await smsReceipt({ messageId: one?.providerId ?? '', status: 'delivered' });
    expect(delivered.statusCode).toBe(204);
    const tampered = await smsReceipt({ messageId: two?.providerId ?? '', status: 'failed' }, { tamper: true });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toMatchObject({ error: 'ERR_WEBHOOK_SIGNATURE' });
    const wrongSecret = await smsReceipt({ messageId: two?.providerId ?? '', status: 'delivered' }, { secret: 'another-secret' });
    expect(wrongSecret.statusCode).toBe(401);
    const unsigned = await t.request({ method: 'GET', url: `/api/webhooks/vonage/sms?messageId=${two?.providerId ?? ''}&status=delivered` });
    expect(unsigned.statusCode).toBe(401);
    // A receipt sent as a GET query, as Vonage does when the account's method is GET.
    const params: Record<string, string> = { messageId: two?.providerId ?? '', status: 'rejected', 'err-code': '6', msisdn: '5511970000008', timestamp: String(Math.floor(Date.now() / 1000)) };
    params.sig = smsSignature(params, SIGNATURE_SECRET);
    const viaGet = await t.request({ method: 'GET', url: `/api/webhooks/vonage/sms?${new URLSearchParams(params).toString()}` });
    expect(viaGet.statusCode).toBe(204);
    // And as a form, when the account posts receipts that way.
    const form: Record<string, string> = { messageId: three?.providerId ?? '', status: 'delivered', msisdn: '5511970000015', timestamp: String(Math.floor(Date.now() / 1000) + 1) };
    form.sig = smsSignature(form, SIGNATURE_SECRET);
    const viaForm = await t.request({
      method: 'POST',
      url: '/api/webhooks/vonage/sms',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    expect(viaForm.statusCode).toBe(204);
    const rows = Object.fromEntries((await recipients(id)).map((r) => [r.number, r]));
    expect(rows['5511970000015']).toMatchObject({ status: 'sent', delivery: 'delivered' });
    expect(rows['5511970000007']).toMatchObject({ status: 'sent', delivery: 'delivered' });
    expect(rows['5511970000008']).toMatchObject({ status: 'failed', delivery: 'rejected', error: 'ERR_VONAGE_NOT_DELIVERED' });
    // A receipt for an id nobody sent is answered and changes nothing.
    expect((await smsReceipt({ messageId: randomUUID(), status: 'delivered' })).statusCode).toBe(204);
  });
});

describe('Voice calls', () => {
  it('places each call with a JWT of the application and a talk action in the chosen language; call events move it on, in order only', async () => {
    const before = vonage.requests('/v1/calls').length;
    const res = await t.request({
      method: 'POST',
      url: '/api/calls',
      token: t.adminToken,
      payload: { from: '5511900001111', numbers: '5511970000009\n5511970000010', text: 'Your order has shipped.', language: 'en-US' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    const done = await campaign(id, finished);
    expect(done.counts).toMatchObject({ sent: 2 });
    const calls = vonage.requests('/v1/calls').slice(before);
    expect(calls).toHaveLength(2);
    const [header, payload, signature] = (calls[0]?.headers.authorization ?? '').replace('Bearer ', '').split('.');
    expect(verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature ?? '', 'base64url'))).toBe(true);
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toMatchObject({ application_id: APP_ID });
    expect(JSON.parse(calls[0]?.body ?? '{}')).toEqual({
      to: [{ type: 'phone', number: '5511970000009' }],
      from: { type: 'phone', number: '5511900001111' },
      ncco: [{ action: 'talk', text: 'Your order has shipped.', language: 'en-US' }],
      event_url: [`${PUBLIC_URL}/api/webhooks/vonage/call`],
      event_method: 'POST',
    });
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);

    const [first, second] = await recipients(id);
    for (const status of ['started', 'ringing', 'answered', 'completed']) expect((await callEvent({ uuid: first?.providerId ?? '', status })).statusCode).toBe(204);
    // Late and out of order: ignored.
    expect((await callEvent({ uuid: first?.providerId ?? '', status: 'ringing' })).statusCode).toBe(204);
    expect((await callEvent({ uuid: second?.providerId ?? '', status: 'busy' })).statusCode).toBe(204);
    const forged = await callEvent({ uuid: second?.providerId ?? '', status: 'completed' }, { token: callEventToken('{"other":"body"}') });
    expect(forged.statusCode).toBe(401);
    const wrongKey = await callEvent({ uuid: second?.providerId ?? '', status: 'completed' }, { token: callEventToken('{}', 'not-the-secret') });
    expect(wrongKey.statusCode).toBe(401);
    const rows = Object.fromEntries((await recipients(id)).map((r) => [r.number, r]));
    expect(rows['5511970000009']).toMatchObject({ status: 'sent', delivery: 'completed' });
    expect(rows['5511970000010']).toMatchObject({ status: 'failed', delivery: 'busy', error: 'ERR_VONAGE_NOT_DELIVERED' });
  });

  it('needs the application id and private key', async () => {
    await setting('vonagePrivateKey', '');
    const res = await t.request({ method: 'POST', url: '/api/calls', token: t.adminToken, payload: { numbers: '5511970000011', text: 'Oi' } });
    const paused = await campaign(res.json<{ campaign: TCampaign }>().campaign.id, (c) => c.status === 'paused');
    expect(paused.pauseReason).toBe('ERR_VONAGE_NOT_CONFIGURED');
    await setting('vonagePrivateKey', privateKey);
    await t.request({ method: 'POST', url: `/api/campaigns/${paused.id}/cancel`, token: t.adminToken });
  });
});

describe('webhook freshness and replays', () => {
  const MINUTE = 60;
  const now = () => Math.floor(Date.now() / 1000);

  async function sentSms(number: string): Promise<string> {
    const res = await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: { from: 'Loja', numbers: number, text: 'Frescor' } });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    await campaign(id, finished);
    return (await recipients(id))[0]?.providerId ?? '';
  }

  async function deliveryOf(providerId: string): Promise<string | null | undefined> {
    const row = await t.ctx.db.selectFrom('campaignRecipients').select('delivery').where('providerId', '=', providerId).executeTakeFirst();
    return row?.delivery;
  }

  it('refuses a delivery receipt dated outside five minutes, or undated, and records nothing', async () => {
    const messageId = await sentSms('5511970000020');
    for (const timestamp of [String(now() - 2 * 365 * 24 * 60 * MINUTE), String(now() - 6 * MINUTE), String(now() + 6 * MINUTE), undefined, 'soon', '']) {
      const res = await smsReceipt({ messageId, status: 'failed', timestamp });
      expect(res.statusCode, `timestamp ${String(timestamp)}`).toBe(401);
      expect(res.json(), `timestamp ${String(timestamp)}`).toMatchObject({ error: 'ERR_WEBHOOK_STALE' });
    }
    expect(await deliveryOf(messageId)).toBeNull();
    // Within the window (a clock a little off either way) it is taken.
    expect((await smsReceipt({ messageId, status: 'delivered', timestamp: String(now() - 4 * MINUTE) })).statusCode).toBe(204);
    expect(await deliveryOf(messageId)).toBe('delivered');
  });

  it('takes a signed receipt once: the same delivery again, by POST or GET, is refused, also after a restart', async () => {
    const messageId = await sentSms('5511970000021');
    const params: Record<string, string> = { messageId, status: 'accepted', msisdn: '5511970000021', timestamp: String(now()), nonce: randomUUID() };
    params.sig = smsSignature(params, SIGNATURE_SECRET);
    const post = () => t.request({ method: 'POST', url: '/api/webhooks/vonage/sms', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(params) });
    expect((await post()).statusCode).toBe(204);
    expect(await deliveryOf(messageId)).toBe('accepted');
    const again = await post();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_WEBHOOK_REPLAYED' });
    const viaGet = await t.request({ method: 'GET', url: `/api/webhooks/vonage/sms?${new URLSearchParams(params).toString()}` });
    expect(viaGet.statusCode).toBe(409);
    // The memory is in the database every node shares, not in this process.
    t = await t.restart();
    expect((await post()).statusCode).toBe(409);
    // A replay with a later status changes nothing: a fresh delivered receipt still moves it on.
    expect(await deliveryOf(messageId)).toBe('accepted');
    expect((await smsReceipt({ messageId, status: 'delivered' })).statusCode).toBe(204);
    expect(await deliveryOf(messageId)).toBe('delivered');
  });

  it('refuses a call event whose token is old, undated or from the future, and the same token twice', async () => {
    const res = await t.request({ method: 'POST', url: '/api/calls', token: t.adminToken, payload: { from: '5511900001111', numbers: '5511970000022', text: 'Frescor' } });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    await campaign(id, finished);
    const uuid = (await recipients(id))[0]?.providerId ?? '';
    const body = callEventBody({ uuid, status: 'failed' });
    for (const iat of [now() - 365 * 24 * 60 * MINUTE, now() - 6 * MINUTE, now() + 6 * MINUTE, undefined, 'yesterday']) {
      const stale = await callEvent({}, { body, token: callEventToken(body, SIGNATURE_SECRET, { iat }) });
      expect(stale.statusCode, `iat ${String(iat)}`).toBe(401);
      expect(stale.json(), `iat ${String(iat)}`).toMatchObject({ error: 'ERR_WEBHOOK_STALE' });
    }
    expect(await deliveryOf(uuid)).toBeNull();
    const ringing = callEventBody({ uuid, status: 'ringing' });
    const token = callEventToken(ringing);
    expect((await callEvent({}, { body: ringing, token })).statusCode).toBe(204);
    const replayed = await callEvent({}, { body: ringing, token });
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json()).toMatchObject({ error: 'ERR_WEBHOOK_REPLAYED' });
    // Without a jti, the token itself is remembered.
    const answered = callEventBody({ uuid, status: 'answered' });
    const noJti = callEventToken(answered, SIGNATURE_SECRET, { jti: undefined });
    expect((await callEvent({}, { body: answered, token: noJti })).statusCode).toBe(204);
    expect((await callEvent({}, { body: answered, token: noJti })).statusCode).toBe(409);
    expect(await deliveryOf(uuid)).toBe('answered');
  });
});

describe('tool API and contacts', () => {
  it('takes /sendSms and /makeVoiceCall with the token, answers 202 with the id, and refuses without credentials', async () => {
    const sms = await t.request({ method: 'POST', url: '/api/sendSms', payload: { from: 'Loja', to: '5511970000012', text: 'Pelo token', token: apiToken } });
    expect(sms.statusCode).toBe(202);
    const smsId = sms.json<{ id: number }>().id;
    const call = await t.request({ method: 'POST', url: '/api/makeVoiceCall', payload: { from: '5511900001111', to: '5511970000012', text: 'Olá, aqui é a loja.', token: apiToken } });
    expect(call.statusCode).toBe(202);
    for (const path of ['/api/sendSms', '/api/makeVoiceCall']) {
      expect((await t.request({ method: 'POST', url: path, payload: { from: 'Loja', to: '5511970000012', text: 'x' } })).statusCode, path).toBe(401);
      expect((await t.request({ method: 'POST', url: path, payload: { from: 'Loja', to: '5511970000012', text: 'x', token: 'wrong' } })).statusCode, path).toBe(401);
      const two = await t.request({ method: 'POST', url: path, payload: { from: 'Loja', to: '5511970000012\n5511970000013', text: 'x', token: apiToken } });
      expect(two.statusCode, path).toBe(400);
    }
    const smsDone = await campaign(smsId, finished);
    expect(smsDone).toMatchObject({ kind: 'sms', source: 'api', counts: { sent: 1 } });
    await campaign(call.json<{ id: number }>().id, finished);
    // The contact's panel lists both.
    const contacts = (await t.request({ method: 'GET', url: '/api/contacts?searchParam=5511970000012', token: t.adminToken })).json<{ contacts: { id: number }[] }>();
    const contactId = contacts.contacts[0]?.id ?? 0;
    const sends = (await t.request({ method: 'GET', url: `/api/contacts/${contactId}/phone-sends`, token: t.adminToken })).json<{ sends: TPhoneSend[] }>().sends;
    expect(sends.map((s) => [s.kind, s.text])).toEqual([
      ['call', 'Olá, aqui é a loja.'],
      ['sms', 'Pelo token'],
    ]);
  });

  it('leaves a send that a crash interrupted as unknown instead of sending it twice', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/sms',
      token: t.adminToken,
      payload: { from: 'Loja', numbers: '5511970000014', text: 'Oi', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    // As if the server died between claiming the recipient and Vonage's answer.
    await t.ctx.db.updateTable('campaignRecipients').set({ status: 'sending' }).where('campaignId', '=', id).execute();
    t = await t.restart();
    const rows = await recipients(id);
    expect(rows[0]).toMatchObject({ status: 'unknown', error: 'ERR_SEND_IN_DOUBT' });
  });
});
