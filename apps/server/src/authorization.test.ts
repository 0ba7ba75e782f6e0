/**
 * Every route of the OpenAPI document, called with no token, as a plain user of the built-in
 * agent role, as an admin, and as plain users of custom roles, against the table below. The plain
 * users belong to the queue of the connection the tickets arrive on, so what they may do with
 * tickets, contacts and messages they can see is allowed; what is for admins answers 403. A row
 * names the permission its route needs (`perm`): for each permission, a user whose role lacks
 * exactly that one gets 403 ERR_NO_PERMISSION there and, everywhere else, the answer of a user who
 * holds it; a user whose role holds nothing is refused every route that names a permission. A
 * route without a row fails the test: a new route needs its decision written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiTokenCreated } from '@zapdesk/shared/api-tokens';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { AGENT_DEFAULT_PERMISSIONS, PERMISSIONS, type Permission } from '@zapdesk/shared/permissions';
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, type TestApp } from './test/harness.js';

/** A voice note made by opusenc (Ogg Opus). */
const PNG_FILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const OPUS_FILE = fs.readFileSync(path.join(import.meta.dirname, 'features/messages/fixtures/opusenc-sine.ogg'));

type Role = 'anon' | 'user' | 'admin';
/** Who calls: the role's fixtures are made as this user (an anonymous call's as the admin). */
type Who = { role: Role; id: number; token: string; email: string; password: string };
type Call = { url: string; payload?: unknown; headers?: Record<string, string>; token?: string | null };
/**
 * The status each role gets; `call` builds the request (fresh fixtures where the call consumes
 * them). `perm`: the permission the route needs; `holder`: what a plain user whose role holds it
 * gets (by default the plain user's answer when the agent role holds it, the admin's otherwise).
 */
type Row = { anon: number; user: number; admin: number; perm?: Permission; holder?: number; call?: (who: Who) => Promise<Partial<Call>> | Partial<Call> };

let t: TestApp;
let connectionId: number;
let queueId: number;
let admin: Who;
let plain: Who;
/** For each permission, a plain user whose custom role holds every permission but that one. */
const lacking = new Map<Permission, Who>();
/** A plain user whose custom role holds no permission at all. */
let powerless: Who;
/** A named API token holding every permission. */
let scopedToken: string;
let other: { id: number };
let ticket: TTicket;
let n = 0;

/** A new customer writes: a pending ticket in the plain user's queue. */
async function freshTicket(): Promise<TTicket> {
  return t.inboundTicket(connectionId, `oi ${(n += 1)}`);
}

async function ownReply(who: Who): Promise<TMessage> {
  const target = await acceptedTicket(who);
  const token = who.token;
  const res = await t.request({ method: 'POST', url: `/api/messages/${target.id}`, token, payload: { body: 'Olá' } });
  expect(res.statusCode).toBe(201);
  return res.json<TMessage[]>()[0] as TMessage;
}

async function failedReply(who: Who): Promise<TMessage> {
  // Numbers of the country code 999 have no account on the simulated network: the reply fails.
  const contact = await t.createContact({ number: `+999${String(Date.now()).slice(-8)}${(n += 1)}` });
  const token = who.token;
  const created = await t.request({ method: 'POST', url: '/api/tickets', token, payload: { contactId: contact.id, status: 'open', userId: who.id } });
  expect(created.statusCode).toBe(201);
  const sent = await t.request({ method: 'POST', url: `/api/messages/${created.json<TTicket>().id}`, token, payload: { body: 'Alguém?' } });
  expect(sent.statusCode).toBe(400);
  const chat = (await t.request({ method: 'GET', url: `/api/messages/${created.json<TTicket>().id}`, token })).json<{ messages: TMessage[] }>().messages;
  return chat.find((m) => m.fromMe) as TMessage;
}

async function acceptedTicket(who: Who): Promise<TTicket> {
  const target = await freshTicket();
  const token = who.token;
  expect((await t.request({ method: 'PUT', url: `/api/tickets/${target.id}`, token, payload: { status: 'open' } })).statusCode).toBe(200);
  return target;
}

async function mediaMessage(token: string): Promise<TMessage> {
  const from = `55119${String(Date.now()).slice(-7)}${(n += 1) % 10}`;
  const sent = await t.request({
    method: 'POST',
    url: `/api/simulator/${connectionId}/inbound`,
    token: t.adminToken,
    payload: { from, body: '', media: { base64: Buffer.from('%PDF-1.4 test').toString('base64'), mimetype: 'application/pdf', filename: 'boleto.pdf' } },
  });
  expect(sent.statusCode).toBe(200);
  const found = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets[0] as TTicket;
  const chat = (await t.request({ method: 'GET', url: `/api/messages/${found.id}`, token })).json<{ messages: TMessage[] }>().messages;
  return chat[0] as TMessage;
}

function multipart(name: string, filename: string, type: string, content: string): Partial<Call> {
  const boundary = 'zdgboundary';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function multipartBytes(name: string, filename: string, type: string, data: Buffer): Partial<Call> {
  const boundary = 'zdgboundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  return { payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A throwaway account of the role with TOTP on; `code(1)` is the authenticator's next code. */
async function enrolled(role: Role): Promise<{ token: string; password: string; code: (steps: number) => string }> {
  const { token, password } = await t.createUser({ profile: role === 'admin' ? 'admin' : 'user' });
  const { secret } = (await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token })).json<{ secret: string }>();
  const code = (steps: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
  expect((await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token, payload: { code: code(0) } })).statusCode).toBe(200);
  return { token, password, code };
}

/** A campaign of the role's own (the admin's for no token), scheduled for later unless asked to run now. */
async function ownCampaign(who: Who, options: { scheduled?: boolean } = {}): Promise<number> {
  // A user without the bulk permission cannot make one: it is made as the admin and handed to them.
  const handed = who === lacking.get('campaigns') || who === powerless;
  const token = who.role === 'user' && !handed ? who.token : t.adminToken;
  const at = options.scheduled === false ? {} : { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() };
  const res = await t.request({
    method: 'POST',
    url: '/api/campaigns',
    token,
    payload: { kind: 'text', whatsappId: connectionId, numbers: `4477009${String((n += 1)).padStart(5, '0')}`, message: 'Oi', minDelay: 0, maxDelay: 0, ...at },
  });
  expect(res.statusCode).toBe(201);
  const id = res.json<{ campaign: { id: number } }>().campaign.id;
  if (handed) await t.ctx.db.updateTable('campaigns').set({ userId: who.id }).where('id', '=', id).execute();
  return id;
}

const ok = 200;
const alwaysOpen = { timezone: 'America/Sao_Paulo', week: Array.from({ length: 7 }, () => [{ from: '00:00', to: '24:00' }]), holidays: [], outOfHoursMessage: '' };
const table: Record<string, Row> = {
  'GET /api/health': { anon: ok, user: ok, admin: ok },
  // Liveness and readiness: for balancers and systemd, public.
  'GET /api/health/live': { anon: ok, user: ok, admin: ok },
  'GET /api/health/ready': { anon: ok, user: ok, admin: ok },
  'POST /api/auth/login': { anon: ok, user: ok, admin: ok, call: () => ({ payload: { email: plain.email, password: plain.password } }) },
  // Sign-up is off on a new install: nobody may register.
  'POST /api/auth/signup': { anon: 403, user: 403, admin: 403, call: () => ({ payload: { name: 'Someone', email: `someone${(n += 1)}@test.local`, password: 'secret-pass' } }) },
  // The refresh cookie is the credential: without it there is no session to restore (401), whatever the bearer says.
  'POST /api/auth/refresh_token': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => (who.role === 'anon' ? {} : { headers: { cookie: (await t.login(who.email, who.password)).cookie } }),
  },
  // A throwaway account of the role: logging out ends that account's sessions.
  'DELETE /api/auth/logout': { anon: 401, user: 204, admin: 204, call: async (who) => (who.role === 'anon' ? {} : { token: (await t.createUser({ profile: who.role })).token }) },

  // Finishing a sign-in with a second factor: the challenge from the password is the credential, whatever the bearer says.
  'POST /api/auth/login/2fa': { anon: 401, user: 401, admin: 401, call: () => ({ payload: { challenge: 'no-such-challenge', code: '123456' } }) },
  'POST /api/auth/login/2fa/setup': { anon: 401, user: 401, admin: 401, call: () => ({ payload: { challenge: 'no-such-challenge' } }) },
  'POST /api/auth/login/2fa/enable': { anon: 401, user: 401, admin: 401, call: () => ({ payload: { challenge: 'no-such-challenge', code: '123456' } }) },
  // One's own second factor: anyone signed in, for themself (throwaway accounts where it changes).
  'GET /api/auth/2fa': { anon: 401, user: ok, admin: ok },
  'POST /api/auth/2fa/setup': { anon: 401, user: ok, admin: ok, call: async (who) => (who.role === 'anon' ? {} : { token: (await t.createUser({ profile: who.role })).token }) },
  'POST /api/auth/2fa/enable': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      if (who.role === 'anon') return { payload: { code: '123456' } };
      const { token } = await t.createUser({ profile: who.role });
      const { secret } = (await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token })).json<{ secret: string }>();
      return { token, payload: { code: TOTP.generate({ secret: Secret.fromBase32(secret) }) } };
    },
  },
  'POST /api/auth/2fa/disable': {
    anon: 401,
    user: 204,
    admin: 204,
    call: async (who) => {
      if (who.role === 'anon') return { payload: { password: 'secret-pass', code: '123456' } };
      const account = await enrolled(who.role);
      return { token: account.token, payload: { password: account.password, code: account.code(1) } };
    },
  },
  'POST /api/auth/2fa/recovery-codes': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      if (who.role === 'anon') return { payload: { code: '123456' } };
      const account = await enrolled(who.role);
      return { token: account.token, payload: { code: account.code(1) } };
    },
  },
  // Turning off someone else's second factor (a lost phone) is for admins.
  'DELETE /api/users/{id}/2fa': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/users/${(await t.createUser()).user.id}/2fa` }) },

  'GET /api/users': { anon: 401, user: ok, admin: ok },
  'GET /api/users/online': { anon: 401, user: ok, admin: ok },
  'POST /api/users': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { name: `New ${(n += 1)}`, email: `new${n}@test.local`, password: 'secret-pass', profile: 'user', queueIds: [] } }) },
  // Another agent's account is for admins; one's own is readable.
  'GET /api/users/{id}': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/users/${other.id}` }) },
  // Someone else's account: name, e-mail, profile and queues are for admins.
  'PUT /api/users/{id}': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/users/${other.id}`, payload: { name: 'Renamed', email: `other${(n += 1)}@test.local`, profile: 'user', queueIds: [] } }),
  },
  // Roles are for admins only.
  'GET /api/roles': { anon: 401, user: 403, admin: ok },
  'POST /api/roles': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { name: `Papel ${(n += 1)}`, permissions: ['groups'] } }) },
  'PUT /api/roles/{id}': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/roles/${await spareRole()}`, payload: { name: `Papel ${(n += 1)}`, permissions: [] } }) },
  'DELETE /api/roles/{id}': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/roles/${await spareRole()}` }) },
  'DELETE /api/users/{id}': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/users/${(await t.createUser()).user.id}` }) },

  'GET /api/queue': { anon: 401, user: ok, admin: ok },
  'POST /api/queue': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { name: `Fila ${(n += 1)}`, color: '#123456', greetingMessage: '' } }) },
  'GET /api/queue/{id}': { anon: 401, user: ok, admin: ok, call: () => ({ url: `/api/queue/${queueId}` }) },
  'PUT /api/queue/{id}': {
    anon: 401,
    user: 403,
    admin: ok,
    call: async () => ({ url: `/api/queue/${(await t.createQueue()).id}`, payload: { name: `Fila ${(n += 1)}`, color: '#654321', greetingMessage: '' } }),
  },
  'DELETE /api/queue/{id}': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/queue/${(await t.createQueue()).id}` }) },
  // Auto-assignment is set by admins; turned off here, so no other row's ticket is handed out.
  'GET /api/queue/{id}/assignment': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/queue/${queueId}/assignment` }) },
  'PUT /api/queue/{id}/assignment': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/queue/${queueId}/assignment`, payload: { enabled: false, maxPerAgent: 3 } }) },

  // Business hours are for admins; a body that keeps every day open and sends nothing.
  'GET /api/business-hours': { anon: 401, user: 403, admin: ok },
  'GET /api/business-hours/default': { anon: 401, user: 403, admin: ok },
  'PUT /api/business-hours/default': { anon: 401, user: 403, admin: ok, call: () => ({ payload: alwaysOpen }) },
  'DELETE /api/business-hours/default': { anon: 401, user: 403, admin: 204 },
  'GET /api/business-hours/queues/{queueId}': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/business-hours/queues/${queueId}` }) },
  'PUT /api/business-hours/queues/{queueId}': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/business-hours/queues/${queueId}`, payload: alwaysOpen }) },
  'DELETE /api/business-hours/queues/{queueId}': { anon: 401, user: 403, admin: 204, call: () => ({ url: `/api/business-hours/queues/${queueId}` }) },
  // Labels: admins define them; whoever sees a ticket or a contact labels it.
  'GET /api/labels': { anon: 401, user: ok, admin: ok },
  'POST /api/labels': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { name: `Etiqueta ${(n += 1)}`, color: '#123456' } }) },
  'PUT /api/labels/{id}': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/labels/${await spareLabel()}`, payload: { name: `Etiqueta ${(n += 1)}`, color: '#654321' } }) },
  'DELETE /api/labels/{id}': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/labels/${await spareLabel()}` }) },
  'POST /api/tickets/{id}/labels': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/tickets/${(await seenTicket(who)).id}/labels`, payload: { labelId: await spareLabel() } }) },
  'DELETE /api/tickets/{id}/labels/{labelId}': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/tickets/${(await seenTicket(who)).id}/labels/${await spareLabel()}` }) },
  'POST /api/contacts/{id}/labels': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => ({ url: `/api/contacts/${(await seenTicket(who)).contactId}/labels`, payload: { labelId: await spareLabel() } }),
  },
  'DELETE /api/contacts/{id}/labels/{labelId}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => ({ url: `/api/contacts/${(await seenTicket(who)).contactId}/labels/${await spareLabel()}` }),
  },

  // Quick answers are the team's: any user manages them.
  'GET /api/quickAnswers': { anon: 401, user: ok, admin: ok },
  'POST /api/quickAnswers': { anon: 401, user: 201, admin: 201, call: () => ({ payload: { shortcut: `oi${(n += 1)}`, message: 'Olá, tudo bem?' } }) },
  'GET /api/quickAnswers/{id}': { anon: 401, user: ok, admin: ok, call: async () => ({ url: `/api/quickAnswers/${await quickAnswer()}` }) },
  'PUT /api/quickAnswers/{id}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async () => ({ url: `/api/quickAnswers/${await quickAnswer()}`, payload: { shortcut: `tchau${(n += 1)}`, message: 'Até logo, obrigado!' } }),
  },
  'DELETE /api/quickAnswers/{id}': { anon: 401, user: 204, admin: 204, call: async () => ({ url: `/api/quickAnswers/${await quickAnswer()}` }) },

  'GET /api/contacts': { anon: 401, user: ok, admin: ok },
  'POST /api/contacts': { anon: 401, user: 201, admin: 201, call: () => ({ payload: { name: 'Novo', number: `5511955${String((n += 1)).padStart(6, '0')}`, email: '' } }) },
  'GET /api/contacts/by-number': { anon: 401, user: ok, admin: ok, call: () => ({ url: '/api/contacts/by-number?number=11987650000' }) },
  'GET /api/contacts/export': { anon: 401, user: ok, admin: ok, perm: 'contactsImportExport' },
  'GET /api/contacts/{id}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/contacts/${own.contactId}` };
    },
  },
  // A contact of a ticket the user sees, its number unchanged.
  'PUT /api/contacts/{id}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/contacts/${own.contactId}`, payload: { name: `Cliente ${(n += 1)}`, number: own.contact.number, email: '' } };
    },
  },
  'DELETE /api/contacts/{id}': { anon: 401, user: 403, admin: 204, perm: 'contactsDelete', call: async () => ({ url: `/api/contacts/${(await t.createContact()).id}` }) },
  'POST /api/contact': { anon: 401, user: ok, admin: ok, call: () => ({ payload: { name: 'Outro', number: `5511944${String((n += 1)).padStart(6, '0')}` } }) },
  'POST /api/contacts/import': {
    anon: 401,
    user: ok,
    admin: ok,
    perm: 'contactsImportExport',
    call: () => multipart('file', 'contatos.csv', 'text/csv', `name;number;email\nImportado;5511933${String((n += 1)).padStart(6, '0')};\n`),
  },

  'GET /api/settings': { anon: 401, user: 403, admin: ok, perm: 'settings' },
  'GET /api/settings/phone-numbers': { anon: 401, user: ok, admin: ok },
  'PUT /api/settings/{key}': { anon: 401, user: 403, admin: ok, perm: 'settings', call: () => ({ url: '/api/settings/timeCreateNewTicket', payload: { value: '3600' } }) },
  'POST /api/settings/userApiToken/regenerate': { anon: 401, user: 403, admin: ok },
  // Named API tokens: for admins.
  'GET /api/api-tokens': { anon: 401, user: 403, admin: ok },
  'POST /api/api-tokens': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { name: `Token ${(n += 1)}`, permissions: ['groups'] } }) },
  'DELETE /api/api-tokens/{id}': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/api-tokens/${(await namedToken(['groups'])).apiToken.id}` }) },

  // Outgoing webhooks: for admins.
  'GET /api/webhooks': { anon: 401, user: 403, admin: ok },
  'POST /api/webhooks': { anon: 401, user: 403, admin: 201, call: () => ({ payload: { url: 'https://receiver.invalid/hook', events: ['ticket.created'], enabled: false } }) },
  'PUT /api/webhooks/{id}': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/webhooks/${await webhookId()}`, payload: { enabled: false } }) },
  'DELETE /api/webhooks/{id}': { anon: 401, user: 403, admin: 204, call: async () => ({ url: `/api/webhooks/${await webhookId()}` }) },
  'POST /api/webhooks/{id}/secret': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/webhooks/${await webhookId()}/secret` }) },
  'POST /api/webhooks/{id}/ping': { anon: 401, user: 403, admin: 201, call: async () => ({ url: `/api/webhooks/${await webhookId()}/ping` }) },
  'GET /api/webhooks/{id}/deliveries': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/webhooks/${await webhookId()}/deliveries` }) },
  'GET /api/webhooks/{id}/deliveries/{deliveryId}': { anon: 401, user: 403, admin: ok, call: async () => ({ url: await webhookDelivery() }) },
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/resend': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `${await webhookDelivery()}/resend` }) },

  'GET /api/dashboard': { anon: 401, user: ok, admin: ok },
  'GET /api/reports': { anon: 401, user: 403, admin: ok, perm: 'reports', call: () => ({ url: '/api/reports?from=2026-03-02&to=2026-03-08' }) },
  'GET /api/reports/options': { anon: 401, user: 403, admin: ok, perm: 'reports' },
  'GET /api/reports/export': { anon: 401, user: 403, admin: ok, perm: 'reports', call: () => ({ url: '/api/reports/export?from=2026-03-02&to=2026-03-08' }) },
  // The first-run checklist: for admins; the sign-in page's public settings: for anyone.
  'GET /api/onboarding': { anon: 401, user: 403, admin: ok },
  'POST /api/onboarding/dismiss': { anon: 401, user: 403, admin: ok },
  'GET /api/public-settings': { anon: ok, user: ok, admin: ok },

  'GET /api/whatsapp': { anon: 401, user: ok, admin: ok },
  'POST /api/whatsapp': { anon: 401, user: 403, admin: 201, perm: 'connectionsManage', call: () => ({ payload: { name: `Phone ${(n += 1)}`, channel: 'simulator' } }) },
  'GET /api/whatsapp/{id}': { anon: 401, user: ok, admin: ok, perm: 'connectionsView', call: () => ({ url: `/api/whatsapp/${connectionId}` }) },
  'PUT /api/whatsapp/{id}': {
    anon: 401,
    user: 403,
    admin: ok,
    perm: 'connectionsManage',
    call: async () => ({ url: `/api/whatsapp/${await spareConnection()}`, payload: { name: `Phone ${(n += 1)}`, channel: 'simulator' } }),
  },
  'DELETE /api/whatsapp/{id}': { anon: 401, user: 403, admin: 204, perm: 'connectionsManage', call: async () => ({ url: `/api/whatsapp/${await spareConnection()}` }) },
  'POST /api/whatsappsession/{id}': { anon: 401, user: 403, admin: ok, perm: 'connectionsManage', call: async () => ({ url: `/api/whatsappsession/${await spareConnection()}` }) },
  'PUT /api/whatsappsession/{id}': { anon: 401, user: 403, admin: ok, perm: 'connectionsManage', call: async () => ({ url: `/api/whatsappsession/${await spareConnection()}` }) },
  'DELETE /api/whatsappsession/{id}': { anon: 401, user: 403, admin: ok, perm: 'connectionsManage', call: async () => ({ url: `/api/whatsappsession/${await spareConnection()}` }) },
  'POST /api/whatsappsession/{id}/pairing-code': {
    anon: 401,
    user: 403,
    admin: ok,
    perm: 'connectionsManage',
    call: async () => ({ url: `/api/whatsappsession/${await spareConnection(false)}/pairing-code`, payload: { phoneNumber: '5511999990000' } }),
  },

  // Customer satisfaction: the connection's question (read like the connection, changed by who manages connections), a ticket's ratings (whoever sees the ticket).
  'GET /api/whatsapp/{id}/csat': { anon: 401, user: ok, admin: ok, perm: 'connectionsView', call: () => ({ url: `/api/whatsapp/${connectionId}/csat` }) },
  'PUT /api/whatsapp/{id}/csat': {
    anon: 401,
    user: 403,
    admin: ok,
    perm: 'connectionsManage',
    call: async () => ({ url: `/api/whatsapp/${await spareConnection()}/csat`, payload: { enabled: false, question: '', language: 'pt' } }),
  },
  'GET /api/tickets/{id}/ratings': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/tickets/${(await seenTicket(who)).id}/ratings` }) },

  'GET /api/tickets': { anon: 401, user: ok, admin: ok },
  'POST /api/tickets': {
    anon: 401,
    user: 201,
    admin: 201,
    call: async (who) => ({ payload: { contactId: (await t.createContact()).id, status: 'open', userId: who.id } }),
  },
  'GET /api/tickets/{id}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/tickets/${own.id}` };
    },
  },
  // Accepting a waiting ticket of one's queue.
  'PUT /api/tickets/{id}': { anon: 401, user: ok, admin: ok, call: async () => ({ url: `/api/tickets/${(await freshTicket()).id}`, payload: { status: 'open' } }) },
  'DELETE /api/tickets/{id}': { anon: 401, user: 403, admin: 204, perm: 'ticketsDelete', call: async () => ({ url: `/api/tickets/${(await freshTicket()).id}` }) },
  'POST /api/tickets/{id}/protocol': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/tickets/${(await acceptedTicket(who)).id}/protocol` }) },
  'POST /api/ticketsClosed': { anon: 401, user: ok, admin: ok },
  'GET /api/ticketsClosed/summary': { anon: 401, user: ok, admin: ok },
  'POST /api/zdgGetWppId': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { payload: { ticketid: own.id } };
    },
  },

  'GET /api/messages/{ticketId}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/messages/${own.id}` };
    },
  },
  'POST /api/messages/{ticketId}': { anon: 401, user: 201, admin: 201, call: async (who) => ({ url: `/api/messages/${(await acceptedTicket(who)).id}`, payload: { body: 'Bom dia!' } }) },
  'POST /api/tickets/{id}/notes': { anon: 401, user: 201, admin: 201, call: async (who) => ({ url: `/api/tickets/${(await seenTicket(who)).id}/notes`, payload: { body: 'Nota da equipe' } }) },
  'GET /api/mentions': { anon: 401, user: ok, admin: ok },
  // Each marks a mention of its own.
  'PUT /api/mentions/{id}/{action}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      // Mentioning oneself tells nobody: an admin is mentioned by a plain user.
      const author = who.id === admin.id ? plain : admin;
      const ticket = await acceptedTicket(author);
      const note = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/notes`, token: author.token, payload: { body: 'veja', mentionUserIds: [who.id] } });
      const mention = await t.ctx.db.selectFrom('mentions').select('id').where('messageId', '=', note.json<TMessage>().id).where('userId', '=', who.id).executeTakeFirst();
      return { url: `/api/mentions/${mention?.id ?? 0}/done` };
    },
  },
  // Allowed, and the send fails again (the number still has no account): 400, not 403.
  'POST /api/messages/{id}/retry': { anon: 401, user: 400, admin: 400, call: async (who) => ({ url: `/api/messages/${(await failedReply(who)).id}/retry` }) },
  'DELETE /api/messages/{id}': { anon: 401, user: 204, admin: 204, call: async (who) => ({ url: `/api/messages/${(await ownReply(who)).id}` }) },
  // A file is fetched by its signed address (the chat's <img> cannot send a token); a forged
  // signature is refused.
  'GET /api/media/{id}': {
    anon: 403,
    user: ok,
    admin: ok,
    call: async (who) => {
      const url = (await mediaMessage(who.token)).mediaUrl ?? '';
      return { url: who.role === 'anon' ? url.replace(/signature=[^&]+/, 'signature=forged') : url };
    },
  },
  'POST /api/zdgSyncMessageUser': {
    anon: 401,
    user: ok,
    admin: ok,
    perm: 'history',
    call: async (who) => {
      const own = await seenTicket(who);
      return { payload: { user: own.contact.number, limit: 5, ticketwhatsappId: connectionId } };
    },
  },
  'POST /api/syncMessage': { anon: 401, user: ok, admin: ok, perm: 'history', call: () => ({ payload: { limit: 5, ticketwhatsappId: connectionId } }) },

  // The simulated phone stands for the customers' side: only admins drive it.
  'POST /api/simulator/{connectionId}/scan': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/simulator/${await spareConnection(false)}/scan` }) },
  'POST /api/simulator/{connectionId}/inbound': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/simulator/${connectionId}/inbound`, payload: { from: `5511922${String((n += 1)).padStart(6, '0')}`, body: 'oi' } }),
  },
  'POST /api/simulator/{connectionId}/history': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/simulator/${connectionId}/history`, payload: { from: ticket.contact.number, messages: [{ body: 'antiga' }] } }),
  },
  'POST /api/simulator/{connectionId}/edit': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/simulator/${connectionId}/edit`, payload: { id: 'SOME-ID', body: 'editada' } }) },
  'POST /api/simulator/{connectionId}/reaction': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/simulator/${connectionId}/reaction`, payload: { id: 'SOME-ID', from: '5511922000001', emoji: '❤️' } }),
  },
  'POST /api/simulator/{connectionId}/contact': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/simulator/${connectionId}/contact`, payload: { from: ticket.contact.number, name: 'Nome novo' } }),
  },
  'GET /api/simulator/{connectionId}/outbox': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/simulator/${connectionId}/outbox` }) },
  'POST /api/simulator/{connectionId}/calls': {
    anon: 401,
    user: 403,
    admin: ok,
    call: () => ({ url: `/api/simulator/${connectionId}/calls`, payload: { from: `5511933${String((n += 1)).padStart(6, '0')}` } }),
  },
  'GET /api/simulator/{connectionId}/calls': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/simulator/${connectionId}/calls` }) },
  'POST /api/simulator/{connectionId}/disconnect': { anon: 401, user: 403, admin: ok, call: async () => ({ url: `/api/simulator/${await spareConnection()}/disconnect` }) },
  // Bulk sends: any signed-in user; each sees and steers their own, admins all.
  'POST /api/campaigns': {
    anon: 401,
    user: 201,
    admin: 201,
    perm: 'campaigns',
    call: () => ({ payload: { kind: 'text', whatsappId: connectionId, numbers: `4477008${String((n += 1)).padStart(5, '0')}`, message: 'Oi', minDelay: 0, maxDelay: 0 } }),
  },
  'GET /api/campaigns': { anon: 401, user: ok, admin: ok, perm: 'campaigns' },
  'GET /api/campaigns/export': { anon: 401, user: ok, admin: ok, perm: 'campaigns' },
  // Also readable with the API token (the tool API answers with this id); without either, 401.
  'GET /api/campaigns/{id}': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}` }) },
  'GET /api/campaigns/{id}/recipients': { anon: 401, user: ok, admin: ok, call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/recipients` }) },
  'PUT /api/campaigns/{id}': { anon: 401, user: ok, admin: ok, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}`, payload: { message: 'Olá' } }) },
  // Allowed; a scheduled campaign cannot be paused or resumed (400), only cancelled; nothing failed to resend.
  'POST /api/campaigns/{id}/pause': { anon: 401, user: 400, admin: 400, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/pause` }) },
  'POST /api/campaigns/{id}/resume': { anon: 401, user: 400, admin: 400, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/resume` }) },
  'POST /api/campaigns/{id}/cancel': { anon: 401, user: ok, admin: ok, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/cancel` }) },
  'POST /api/campaigns/{id}/resend': { anon: 401, user: 400, admin: 400, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/resend` }) },
  'GET /api/local-media': { anon: 401, user: ok, admin: ok, perm: 'campaigns' },
  'POST /api/local-media': { anon: 401, user: 201, admin: 201, perm: 'campaigns', call: () => multipartBytes('file', 'foto.png', 'image/png', PNG_FILE) },
  'DELETE /api/local-media': { anon: 401, user: 404, admin: 404, perm: 'campaigns', call: () => ({ url: '/api/local-media?path=nada.png' }) },
  'GET /api/local-media/file': { anon: 401, user: 404, admin: 404, perm: 'campaigns', call: () => ({ url: '/api/local-media/file?path=nada.png' }) },
  'GET /api/campaigns/{id}/media': { anon: 401, user: 404, admin: 404, perm: 'campaigns', call: async (who) => ({ url: `/api/campaigns/${await ownCampaign(who)}/media` }) },
  'GET /api/instagram/webhook-address': { anon: 401, user: ok, admin: ok, perm: 'instagram' },
  'POST /api/local-media/recordings': { anon: 401, user: 201, admin: 201, perm: 'campaigns', call: () => multipartBytes('file', 'note.ogg', 'audio/ogg', OPUS_FILE) },

  // whaticket's integration send takes an API token only, never a session (its table of calls with
  // tokens is whaticket-contract/integration-api.test.ts).
  'POST /api/messages/send': { anon: 401, user: 401, admin: 401, call: () => ({ payload: { number: '447700700001', body: 'Oi' } }) },
  // The tool API: a session or the userApiToken; sends are one-recipient campaigns (202).
  'POST /api/zdg': {
    anon: 401,
    user: 202,
    admin: 202,
    perm: 'campaigns',
    call: () => ({ payload: { number: `4477007${String((n += 1)).padStart(5, '0')}`, message: 'Oi', ticketwhatsappId: connectionId } }),
  },
  // Allowed; a loopback address is refused by the SSRF guard (400), a missing local file is 404.
  'POST /api/sendMedia': {
    anon: 401,
    user: 400,
    admin: 400,
    perm: 'campaigns',
    call: () => ({ payload: { number: '447700700001', url: 'http://127.0.0.1:9/x.png', title: '', ticketwhatsappId: connectionId } }),
  },
  'POST /api/sendMediaZDG': { anon: 401, user: 404, admin: 404, perm: 'campaigns', call: () => ({ payload: { number: '447700700001', url: 'none.png', title: '', ticketwhatsappId: connectionId } }) },
  'POST /api/sendMediaZDGRec': { anon: 401, user: 404, admin: 404, perm: 'campaigns', call: () => ({ payload: { number: '447700700001', url: 'none.ogg', ticketwhatsappId: connectionId } }) },
  'GET /api/whatsappzdg': { anon: 401, user: ok, admin: ok, perm: 'campaigns' },
  'POST /api/sendAgendamento': { anon: 401, user: ok, admin: ok, perm: 'campaigns', call: () => ({ payload: { dataEnvio: '2031-01-01', ticketwhatsappId: connectionId } }) },
  // Group tools: for every signed-in user (like the bulk pages), and through the tool API.
  'GET /api/groups': { anon: 401, user: ok, admin: ok, perm: 'groups', call: () => ({ url: `/api/groups?whatsappId=${connectionId}` }) },
  'POST /api/groups': { anon: 401, user: 201, admin: 201, perm: 'groups', call: () => ({ payload: { whatsappId: connectionId, title: 'Turma', participants: '447700800001' } }) },
  'POST /api/groups/actions': {
    anon: 401,
    user: 202,
    admin: 202,
    perm: 'groups',
    call: async () => ({ payload: { whatsappId: connectionId, action: 'subject', subject: 'Novo nome', groupIds: [await adminGroup()] } }),
  },
  'POST /api/zdgGroups': {
    anon: 401,
    user: 202,
    admin: 202,
    perm: 'groups',
    call: async () => ({ payload: { subject: 'Novo nome', ticketwhatsappId: connectionId, groupIds: [await adminGroup()] } }),
  },
  'POST /api/zdgGroupsDescription': {
    anon: 401,
    user: 202,
    admin: 202,
    perm: 'groups',
    call: async () => ({ payload: { description: 'Regras', ticketwhatsappId: connectionId, groupIds: [await adminGroup()] } }),
  },
  'POST /api/zdgGroupsCreate': { anon: 401, user: 201, admin: 201, perm: 'groups', call: () => ({ payload: { title: 'Turma', contact: '447700800002', ticketwhatsappId: connectionId } }) },
  'POST /api/zdgGroupsMessage': {
    anon: 401,
    user: 202,
    admin: 202,
    perm: 'groups',
    call: async () => ({ payload: { newMessageGroup: 'Oi, grupo', ticketwhatsappId: connectionId, groupIds: [await adminGroup()] } }),
  },
  'POST /api/zdgOpenGroup': { anon: 401, user: 202, admin: 202, perm: 'groups', call: async () => ({ payload: { ticketwhatsappId: connectionId, groupIds: [await adminGroup()] } }) },
  'POST /api/zdgCloseGroup': { anon: 401, user: 202, admin: 202, perm: 'groups', call: async () => ({ payload: { ticketwhatsappId: connectionId, groupIds: [await adminGroup()] } }) },
  'POST /api/simulator/{connectionId}/groups': {
    anon: 401,
    user: 403,
    admin: 201,
    call: () => ({ url: `/api/simulator/${connectionId}/groups`, payload: { subject: 'Sim', participants: [{ number: '447700800003' }] } }),
  },
  'GET /api/simulator/{connectionId}/groups': { anon: 401, user: 403, admin: ok, call: () => ({ url: `/api/simulator/${connectionId}/groups` }) },
  // E-mail: the list, a retry and the test are for admins; the tool API's mails take a session or
  // the token (allowed here, answered 400 because no SMTP server is set).
  'GET /api/emails': { anon: 401, user: 403, admin: ok },
  'GET /api/chatbot/status': { anon: 401, user: 403, admin: ok },
  'GET /api/chatbot/frame': { anon: 401, user: ok, admin: ok },
  'GET /api/chatbot/tickets/{id}': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/chatbot/tickets/${own.id}` };
    },
  },
  'POST /api/emails/{id}/retry': { anon: 401, user: 403, admin: 404, call: () => ({ url: '/api/emails/999999/retry' }) },
  'POST /api/emails/test': { anon: 401, user: 403, admin: 400, call: () => ({ payload: {} }) },
  'POST /api/zdgSendEmail': { anon: 401, user: 400, admin: 400, perm: 'email', call: () => ({ payload: { zdgSubject: 'Oi', zdgText: 'Texto' } }) },
  'POST /api/zdgSendEmailUser': { anon: 401, user: 400, admin: 400, perm: 'email', call: () => ({ payload: { zdgSubject: 'Oi', zdgText: 'Texto', zdgTo: 'a@example.com' } }) },
  'POST /api/zdgSendEmailAttach': { anon: 401, user: 400, admin: 400, perm: 'email', call: () => ({ payload: { zdgSubject: 'Oi', zdgText: 'Texto', zdgFileName: 'a.txt', zdgContent: 'a' } }) },
  'POST /api/zdgSendEmailAttachUser': {
    anon: 401,
    user: 400,
    admin: 400,
    perm: 'email',
    call: () => ({ payload: { zdgSubject: 'Oi', zdgText: 'Texto', zdgFileName: 'a.txt', zdgContent: 'a', zdgTo: 'a@example.com' } }),
  },
  'POST /api/zdgProtocolo': {
    anon: 401,
    user: 400,
    admin: 400,
    perm: 'email',
    call: async (who) => {
      const own = await seenTicket(who);
      return { payload: { ticket: own.id } };
    },
  },
  // SMS and calls: any signed-in user sends (400 here: no sender is set), the credentials test is
  // for admins; the tool API's takes a session or the token.
  'POST /api/sms': { anon: 401, user: 400, admin: 400, perm: 'phone', call: () => ({ payload: { numbers: '5511988887777', text: 'Oi' } }) },
  'POST /api/calls': { anon: 401, user: 400, admin: 400, perm: 'phone', call: () => ({ payload: { numbers: '5511988887777', text: 'Oi' } }) },
  'POST /api/vonage/balance': { anon: 401, user: 403, admin: 400 },
  'GET /api/contacts/{id}/phone-sends': {
    anon: 401,
    user: ok,
    admin: ok,
    call: async (who) => {
      const own = await seenTicket(who);
      return { url: `/api/contacts/${own.contactId}/phone-sends` };
    },
  },
  'POST /api/sendSms': { anon: 401, user: 400, admin: 400, perm: 'phone', call: () => ({ payload: { to: '5511988887777', text: 'Oi' } }) },
  'POST /api/makeVoiceCall': { anon: 401, user: 400, admin: 400, perm: 'phone', call: () => ({ payload: { to: '5511988887777', text: 'Oi' } }) },
  // Instagram direct sends: any signed-in user (404 here: no Instagram connection); the tool API's takes a session or the token.
  'POST /api/instagram/direct': { anon: 401, user: 404, admin: 404, perm: 'instagram', call: () => ({ payload: { whatsappId: 1, users: 'ana', message: 'Oi' } }) },
  'POST /api/sendDirect': { anon: 401, user: 404, admin: 404, perm: 'instagram', call: () => ({ payload: { userIg: 'ana', message: 'Oi' } }) },
  // The whole contact list and its clean-up are for admins (or the token).
  'GET /api/contactsZDG': { anon: 401, user: 403, admin: ok, perm: 'contactsImportExport', holder: 403 },
  'POST /api/delContacts': { anon: 401, user: 403, admin: ok, perm: 'contactsDelete', call: () => ({ payload: {} }) },
  // The audit log is for admins; no route edits or deletes it.
  'GET /api/audit': { anon: 401, user: 403, admin: ok },
  'GET /api/audit/export': { anon: 401, user: 403, admin: ok },
};

/**
 * The permission each tool API route needs. A named token acts with its permissions only; a
 * session or the userApiToken as before. A tool API route without a line here fails the test.
 */
const toolPermissions: Record<string, Permission> = {
  'POST /api/zdg': 'campaigns',
  'POST /api/sendMedia': 'campaigns',
  'POST /api/sendMediaZDG': 'campaigns',
  'POST /api/sendMediaZDGRec': 'campaigns',
  'GET /api/whatsappzdg': 'campaigns',
  'POST /api/sendAgendamento': 'campaigns',
  'GET /api/contactsZDG': 'contactsImportExport',
  'POST /api/delContacts': 'contactsDelete',
  'POST /api/zdgGroups': 'groups',
  'POST /api/zdgGroupsDescription': 'groups',
  'POST /api/zdgGroupsCreate': 'groups',
  'POST /api/zdgGroupsMessage': 'groups',
  'POST /api/zdgOpenGroup': 'groups',
  'POST /api/zdgCloseGroup': 'groups',
  'POST /api/zdgSendEmail': 'email',
  'POST /api/zdgSendEmailUser': 'email',
  'POST /api/zdgSendEmailAttach': 'email',
  'POST /api/zdgSendEmailAttachUser': 'email',
  'POST /api/zdgProtocolo': 'email',
  'POST /api/sendSms': 'phone',
  'POST /api/makeVoiceCall': 'phone',
  'POST /api/sendDirect': 'instagram',
};

/** The routes a named token may call: the tool API's, and a send's state. */
const takesApiTokens = new Set([...Object.keys(toolPermissions), 'GET /api/campaigns/{id}', 'GET /api/campaigns/{id}/recipients', 'POST /api/messages/send', 'POST /api/syncMessage']);

async function namedToken(permissions: Permission[]): Promise<TApiTokenCreated> {
  const res = await t.request({ method: 'POST', url: '/api/api-tokens', token: t.adminToken, payload: { name: `Token ${(n += 1)}`, permissions } });
  expect(res.statusCode).toBe(201);
  return res.json<TApiTokenCreated>();
}

/** A webhook endpoint, disabled: the tickets the other rows open make no deliveries to its address (which never answers). */
async function webhookId(): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/webhooks', token: t.adminToken, payload: { url: 'https://receiver.invalid/hook', events: ['ticket.created'], enabled: false } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: number }>().id;
}

/** The address of a stored delivery (a ping). */
async function webhookDelivery(): Promise<string> {
  const id = await webhookId();
  const res = await t.request({ method: 'POST', url: `/api/webhooks/${id}/ping`, token: t.adminToken });
  expect(res.statusCode).toBe(201);
  return `/api/webhooks/${id}/deliveries/${res.json<{ id: string }>().id}`;
}

/** A ticket the caller sees: the plain user's works on `ticket` (admins see it too); a custom role's user accepts one of their own. */
const ownTickets = new Map<number, Promise<TTicket>>();
function seenTicket(who: Who): Promise<TTicket> {
  if (who.role !== 'user' || who.id === plain.id) return Promise.resolve(ticket);
  const found = ownTickets.get(who.id) ?? acceptedTicket(who);
  ownTickets.set(who.id, found);
  return found;
}

/** A role nobody holds. */
async function spareRole(): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name: `Spare ${(n += 1)}`, permissions: [] } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: number }>().id;
}

/** A plain user of the main queue holding a custom role with `permissions`, given through the users API. */
async function userWithRole(name: string, permissions: readonly Permission[]): Promise<Who> {
  const role = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name, permissions } });
  expect(role.statusCode).toBe(201);
  const made = await t.createUser({ queueIds: [queueId] });
  const given = await t.request({
    method: 'PUT',
    url: `/api/users/${made.user.id}`,
    token: t.adminToken,
    payload: { name: made.user.name, email: made.user.email, roleId: role.json<{ id: number }>().id },
  });
  expect(given.statusCode).toBe(200);
  return { role: 'user', id: made.user.id, token: made.token, email: made.user.email, password: made.password };
}

async function spareLabel(): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name: `Rótulo ${(n += 1)}`, color: '#0062B1' } });
  return res.json<{ id: number }>().id;
}

async function quickAnswer(): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/quickAnswers', token: t.adminToken, payload: { shortcut: `qa${(n += 1)}`, message: 'Olá, como posso ajudar?' } });
  return res.json<{ id: number }>().id;
}

/** A group of the main phone where it is admin, made on the simulated phone. */
async function adminGroup(): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/simulator/${connectionId}/groups`,
    token: t.adminToken,
    payload: { subject: `Grupo ${(n += 1)}`, participants: [{ number: '447700800004' }] },
  });
  return res.json<{ id: string }>().id;
}

/** A simulator connection nobody else uses (linked unless asked otherwise), for calls that stop, reset or delete it. */
async function spareConnection(linked = true): Promise<number> {
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Spare ${(n += 1)}`, channel: 'simulator' } });
  const id = created.json<{ id: number }>().id;
  if (linked) await t.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: t.adminToken });
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  queueId = (await t.createQueue({ name: 'Suporte' })).id;
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main phone', channel: 'simulator', isDefault: true, queueIds: [queueId] } });
  expect(created.statusCode).toBe(201);
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
  const first = await t.createUser({ queueIds: [queueId], email: 'plain@test.local' });
  plain = { role: 'user', id: first.user.id, token: first.token, email: first.user.email, password: first.password };
  admin = { role: 'admin', id: 1, token: t.adminToken, email: 'admin@test.local', password: 'admin-pass' };
  // Each made with its own password hash: at once, not one after the other.
  const made = await Promise.all([
    ...PERMISSIONS.map((permission) =>
      userWithRole(
        `Sem ${permission}`,
        PERMISSIONS.filter((p) => p !== permission),
      ),
    ),
    userWithRole('Nenhuma permissão', []),
  ]);
  PERMISSIONS.forEach((permission, i) => lacking.set(permission, made[i] as Who));
  powerless = made[PERMISSIONS.length] as Who;
  scopedToken = (await namedToken([...PERMISSIONS])).token;
  other = { id: (await t.createUser()).user.id };
  // The plain user works on it: what 'Close all' does to it (an agent's closes their own open
  // tickets, an admin's every ticket) leaves it theirs for the rows that follow.
  const waiting = await freshTicket();
  expect(waiting.queueId).toBe(queueId);
  const accepted = await t.request({ method: 'PUT', url: `/api/tickets/${waiting.id}`, token: plain.token, payload: { status: 'open' } });
  expect(accepted.statusCode).toBe(200);
  ticket = accepted.json<TTicket>();
  expect(ticket.userId).toBe(plain.id);
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('authorization table', () => {
  it('has a row for every route of the OpenAPI document, and none for a route it lacks', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.filter((r) => !(r in table))).toEqual([]);
    expect(Object.keys(table).filter((r) => !routes.includes(r))).toEqual([]);
  });

  /** What a plain user whose role holds the row's permission gets. */
  const holder = (row: Row): number => row.holder ?? (row.perm && !AGENT_DEFAULT_PERMISSIONS.includes(row.perm) ? row.admin : row.user);
  /** Each caller and the status it expects on a row. */
  const callers = (route: string): { label: string; who: Who | null; bearer?: string; expected: (row: Row) => number }[] => [
    { label: 'no token', who: null, expected: (row) => row.anon },
    // Named tokens open the tool API (and a send's state) only: anywhere else a scoped token, or a
    // wrong one, is no sign-in (the tool API's rows are in the block below).
    ...(takesApiTokens.has(route)
      ? []
      : [
          { label: 'scoped token', who: { ...admin, role: 'anon' as const }, bearer: scopedToken, expected: (row: Row) => row.anon },
          { label: 'wrong token', who: { ...admin, role: 'anon' as const }, bearer: `zdk_${'x'.repeat(43)}`, expected: (row: Row) => row.anon },
        ]),
    { label: 'plain user', who: plain, expected: (row) => row.user },
    ...PERMISSIONS.map((permission) => ({
      label: `role without ${permission}`,
      who: lacking.get(permission) ?? null,
      expected: (row: Row) => (row.perm === permission ? 403 : row.perm ? holder(row) : row.user),
    })),
    { label: 'role without any permission', who: powerless, expected: (row) => (row.perm ? 403 : row.user) },
    // Last: an admin's 'Close all' takes every open ticket, those the users above work on too.
    { label: 'admin', who: admin, expected: (row) => row.admin },
  ];

  for (const [route, row] of Object.entries(table)) {
    const perm = row.perm ? `, needs ${row.perm}` : '';
    it(`${route}: no token ${row.anon}, plain user ${row.user}, admin ${row.admin}${perm}`, async () => {
      const [method, path] = route.split(' ') as [string, string];
      const seen: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const caller of callers(route)) {
        const who = caller.who ?? { ...admin, role: 'anon' as const };
        const call: Call = { url: path, ...(await row.call?.(who)) };
        const token = call.token !== undefined ? call.token : (caller.bearer ?? (caller.who ? caller.who.token : null));
        const res = await t.request({
          method: method,
          url: call.url,
          ...(token ? { token } : {}),
          ...(call.headers ? { headers: call.headers } : {}),
          ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
        });
        wanted[caller.label] = caller.expected(row);
        // A refusal for a missing permission says so by its code (-403 marks another 403).
        const refusedForPermission = row.perm !== undefined && res.statusCode === 403;
        seen[caller.label] = refusedForPermission && res.json<{ error: string }>().error !== 'ERR_NO_PERMISSION' ? -403 : res.statusCode;
        if (seen[caller.label] !== wanted[caller.label]) console.error(route, caller.label, res.statusCode, res.body.slice(0, 300));
      }
      expect(seen).toEqual(wanted);
    });
  }
});

describe('authorization table: the tool API with named tokens', () => {
  it('has a permission for every tool API route', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const tools = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags?.includes('tool API'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(tools.sort()).toEqual(Object.keys(toolPermissions).sort());
  });

  let wrongFrom = 0;
  for (const [route, permission] of Object.entries(toolPermissions)) {
    it(`${route}: a token with '${permission}' answers as an admin, a token without it 403, a wrong token 401`, async () => {
      const [method, path] = route.split(' ') as [string, string];
      const row = table[route];
      if (!row) throw new Error(`no row for ${route}`);
      const scoped = await namedToken([permission]);
      const others = await namedToken(PERMISSIONS.filter((p) => p !== permission));
      const wrong = `${scoped.token.slice(0, -2)}zz`;
      const seen: Record<string, { status: number; error?: string }> = {};
      for (const [who, token] of [
        ['scoped', scoped.token],
        ['lacking', others.token],
        ['wrong', wrong],
      ] as const) {
        const call: Call = { url: path, ...(await row.call?.(admin)) };
        // Each route's wrong token comes from an address of its own: wrong tokens are throttled per address.
        const remoteAddress = who === 'wrong' ? `10.77.0.${(wrongFrom += 1)}` : undefined;
        const res = await t.request({
          method,
          url: call.url,
          token,
          ...(remoteAddress ? { remoteAddress } : {}),
          ...(call.headers ? { headers: call.headers } : {}),
          ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
        });
        seen[who] = { status: res.statusCode, ...(res.statusCode >= 400 && who !== 'scoped' ? { error: res.json<{ error: string }>().error } : {}) };
      }
      expect(seen).toEqual({ scoped: { status: row.admin }, lacking: { status: 403, error: 'ERR_NO_PERMISSION' }, wrong: { status: 401, error: 'ERR_API_TOKEN_INVALID' } });
    });
  }
});
