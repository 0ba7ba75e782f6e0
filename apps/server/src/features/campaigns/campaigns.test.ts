/** Campaigns through the API on the simulated phone: numbers, pacing, control, the phone going away, history. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TCampaignList, TRecipientList } from '@zapdesk/shared/campaigns';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { startCampaignSender } from '../../jobs/campaigns.job.js';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { recoverInDoubt } from './campaign-send.js';

let t: TestApp;
let phone: number;
let run = 0;

async function outbox(connectionId = phone): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json();
}

async function campaign(id: number, token = t.adminToken): Promise<TCampaign> {
  return (await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token })).json();
}

async function recipients(id: number, query = ''): Promise<TRecipientList> {
  return (await t.request({ method: 'GET', url: `/api/campaigns/${id}/recipients?${query}`, token: t.adminToken })).json();
}

async function create(payload: Record<string, unknown>, token = t.adminToken) {
  return t.request({ method: 'POST', url: '/api/campaigns', token, payload: { kind: 'text', whatsappId: phone, minDelay: 0, maxDelay: 0, ...payload } });
}

/** A message body no other test sends. */
function uniqueText(label: string): string {
  run += 1;
  return `${label} #${run} ${Date.now()}`;
}

const finished = (c: TCampaign) => c.status === 'completed' || c.status === 'cancelled';

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Bulk phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

describe('creating a campaign', () => {
  it('stores each number once, drops blanks and repeats, marks what cannot be a number invalid, and sends the rest once each', async () => {
    const body = uniqueText('Promoção');
    const res = await create({ message: body, numbers: '5511987654321\n\n5511987654321\n  \n(55) 11 98765-4322\nnot a number\n12\n447700900123\n+999 1234-5678' });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ campaign: TCampaign; dropped: { blank: number; duplicates: number } }>();
    expect(created.dropped).toEqual({ blank: 2, duplicates: 1 });
    expect(created.campaign.total).toBe(6);

    const done = await waitFor(() => campaign(created.campaign.id), finished);
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ sent: 3, invalid: 2, notOnWhatsapp: 1, queued: 0, sending: 0 });
    const list = await recipients(created.campaign.id);
    const byInput = new Map(list.recipients.map((r) => [r.input, r]));
    expect(byInput.get('not a number')).toMatchObject({ status: 'invalid', number: null, error: 'ERR_WAPP_INVALID_CONTACT' });
    expect(byInput.get('12')).toMatchObject({ status: 'invalid', error: 'ERR_WAPP_INVALID_CONTACT' });
    expect(byInput.get('+999 1234-5678')).toMatchObject({ status: 'notOnWhatsapp', number: '99912345678', error: 'ERR_WAPP_INVALID_CONTACT' });
    expect(byInput.get('(55) 11 98765-4322')).toMatchObject({ status: 'sent', number: '5511987654322' });

    const got = (await outbox()).filter((m) => m.body === body).map((m) => m.to);
    expect(got.sort()).toEqual(['447700900123', '5511987654321', '5511987654322']);
  });

  it('applies the Brazilian rule to what it sends: a 9 added up to area 30, dropped above it', async () => {
    const body = uniqueText('Regra');
    const res = await create({ message: body, numbers: '551187654321\n5531987654321' });
    const done = await waitFor(() => campaign(res.json<{ campaign: TCampaign }>().campaign.id), finished);
    expect(done.counts.sent).toBe(2);
    expect(
      (await outbox())
        .filter((m) => m.body === body)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['5511987654321', '553187654321']);
  });

  it('fills {{name}} for a known contact and leaves it empty for others', async () => {
    await t.createContact({ name: 'Maria Souza', number: '5511955550001' });
    const marker = uniqueText('vars');
    const res = await create({ message: `Olá {{name}}! ${marker}`, numbers: '5511955550001\n5511955550002' });
    await waitFor(() => campaign(res.json<{ campaign: TCampaign }>().campaign.id), finished);
    const bodies = new Map((await outbox()).filter((m) => m.body.endsWith(marker)).map((m) => [m.to, m.body]));
    expect(bodies.get('5511955550001')).toBe(`Olá Maria Souza! ${marker}`);
    expect(bodies.get('5511955550002')).toBe(`Olá ! ${marker}`);
  });

  it('refuses bad input with 400 and a code, and stores nothing', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/campaigns', token: t.adminToken })).json<TCampaignList>().count;
    const cases: [Record<string, unknown>, string][] = [
      [{ message: 'x', numbers: '\n \n' }, 'ERR_NO_RECIPIENTS'],
      [{ message: '', numbers: '5511987654321' }, 'ERR_VALIDATION'],
      [{ message: 'x', numbers: '5511987654321', minDelay: 5, maxDelay: 2 }, 'ERR_VALIDATION'],
      [{ message: 'x', numbers: '5511987654321', minDelay: -1 }, 'ERR_VALIDATION'],
      [{ message: 'x', numbers: '5511987654321', whatsappId: 999_999 }, 'ERR_NO_WAPP_FOUND'],
      [{ message: 'x', numbers: Array.from({ length: 20_001 }, (_, i) => `4477009${String(i).padStart(5, '0')}`).join('\n') }, 'ERR_TOO_MANY_RECIPIENTS'],
      [{ kind: 'mediaUrl', message: 'x', numbers: '5511987654321' }, 'ERR_VALIDATION'],
    ];
    for (const [payload, code] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(code === 'ERR_NO_WAPP_FOUND' ? 404 : 400);
      expect(res.json()).toMatchObject({ error: code });
    }
    const maxLessThanMin = await create({ message: 'x', numbers: '5511987654321', minDelay: 5, maxDelay: 2 });
    expect(maxLessThanMin.json()).toMatchObject({ fields: { maxDelay: 'LESS_THAN_MIN' } });
    expect((await t.request({ method: 'GET', url: '/api/campaigns', token: t.adminToken })).json<TCampaignList>().count).toBe(before);
  });
});

describe('pacing', () => {
  it('waits a random 1 to 2 seconds between two sends of a connection', async () => {
    const body = uniqueText('Ritmo');
    const res = await create({ message: body, numbers: '447700900201\n447700900202\n447700900203\n447700900204', minDelay: 1, maxDelay: 2 });
    await waitFor(() => campaign(res.json<{ campaign: TCampaign }>().campaign.id), finished, 20_000);
    const times = (await outbox())
      .filter((m) => m.body === body)
      .map((m) => Date.parse(m.sentAt))
      .sort((a, b) => a - b);
    expect(times).toHaveLength(4);
    for (let i = 1; i < times.length; i += 1) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(1_000);
      // Two seconds of pace plus the send itself on a busy machine.
      expect(gap).toBeLessThan(2_800);
    }
  });

  it('sends one message at a time per connection when two campaigns run together, in the order they were made', async () => {
    const a = uniqueText('A');
    const b = uniqueText('B');
    const first = await create({ message: a, numbers: '447700900301\n447700900302\n447700900303' });
    const second = await create({ message: b, numbers: '447700900311\n447700900312' });
    for (const res of [first, second]) await waitFor(() => campaign(res.json<{ campaign: TCampaign }>().campaign.id), finished);
    const sent = (await outbox()).filter((m) => m.body === a || m.body === b).map((m) => m.body);
    expect(sent).toEqual([a, a, a, b, b]);
  });
});

describe('control', () => {
  it('pauses, resumes and cancels; a cancelled campaign sends nothing more', async () => {
    const body = uniqueText('Controle');
    const numbers = Array.from({ length: 6 }, (_, i) => `44770090040${i}`).join('\n');
    const { campaign: started } = (await create({ message: body, numbers, minDelay: 1, maxDelay: 1 })).json<{ campaign: TCampaign }>();
    await waitFor(
      () => campaign(started.id),
      (c) => c.counts.sent >= 1,
    );
    const paused = await t.request({ method: 'POST', url: `/api/campaigns/${started.id}/pause`, token: t.adminToken });
    expect(paused.json()).toMatchObject({ status: 'paused', pauseReason: 'user' });
    const sentWhenPaused = (await outbox()).filter((m) => m.body === body).length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await outbox()).filter((m) => m.body === body).length).toBe(sentWhenPaused);
    expect((await t.request({ method: 'POST', url: `/api/campaigns/${started.id}/pause`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_CAMPAIGN_STATE' });

    expect((await t.request({ method: 'POST', url: `/api/campaigns/${started.id}/resume`, token: t.adminToken })).json()).toMatchObject({ status: 'running' });
    await waitFor(
      () => campaign(started.id),
      (c) => c.counts.sent > sentWhenPaused,
    );
    const cancelled = await t.request({ method: 'POST', url: `/api/campaigns/${started.id}/cancel`, token: t.adminToken });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const atCancel = await campaign(started.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await campaign(started.id);
    expect(after.counts.sent).toBe(atCancel.counts.sent);
    expect(after.counts.sent + after.counts.cancelled).toBe(6);
    expect(after.counts.cancelled).toBeGreaterThan(0);
    expect((await outbox()).filter((m) => m.body === body)).toHaveLength(after.counts.sent);
  });

  it('resends the failed ones: a number corrected on the phone side goes out on resend', async () => {
    const body = uniqueText('Reenvio');
    const { campaign: created } = (await create({ message: body, numbers: '447700900501' })).json<{ campaign: TCampaign }>();
    await waitFor(() => campaign(created.id), finished);
    expect((await t.request({ method: 'POST', url: `/api/campaigns/${created.id}/resend`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_CAMPAIGN_STATE' });
    // A failure recorded by the phone side (what a send error leaves behind).
    await t.ctx.db.updateTable('campaignRecipients').set({ status: 'failed', error: 'ERR_SENDING_WAPP_MSG' }).where('campaignId', '=', created.id).execute();
    const resent = await t.request({ method: 'POST', url: `/api/campaigns/${created.id}/resend`, token: t.adminToken });
    expect(resent.json()).toMatchObject({ status: 'running' });
    const done = await waitFor(
      () => campaign(created.id),
      (c) => c.status === 'completed',
    );
    expect(done.counts).toMatchObject({ sent: 1, failed: 0 });
  });

  it('pauses while the phone is away, says why, and resumes by itself when it is back', async () => {
    const body = uniqueText('Queda');
    const numbers = Array.from({ length: 4 }, (_, i) => `44770090060${i}`).join('\n');
    const { campaign: created } = (await create({ message: body, numbers, minDelay: 1, maxDelay: 1 })).json<{ campaign: TCampaign }>();
    await waitFor(
      () => campaign(created.id),
      (c) => c.counts.sent >= 1,
    );
    await t.request({ method: 'POST', url: `/api/simulator/${phone}/disconnect`, token: t.adminToken });
    const paused = await waitFor(
      () => campaign(created.id),
      (c) => c.status === 'paused',
    );
    expect(paused.pauseReason).toBe('ERR_WAPP_NOT_INITIALIZED');
    await t.request({ method: 'POST', url: `/api/whatsappsession/${phone}`, token: t.adminToken });
    const done = await waitFor(
      () => campaign(created.id),
      (c) => c.status === 'completed',
      20_000,
    );
    expect(done.counts.sent).toBe(4);
    expect(
      (await outbox())
        .filter((m) => m.body === body)
        .map((m) => m.to)
        .sort(),
    ).toEqual(numbers.split('\n'));
  });
});

describe('schedule', () => {
  it('starts a scheduled campaign on time, by itself', async () => {
    const body = uniqueText('Agendado');
    const at = new Date(Date.now() + 2_000).toISOString();
    const { campaign: created } = (await create({ message: body, numbers: '447700900701', scheduledAt: at })).json<{ campaign: TCampaign }>();
    expect(created).toMatchObject({ status: 'scheduled', scheduledAt: at, startedAt: null });
    expect((await outbox()).filter((m) => m.body === body)).toHaveLength(0);
    const done = await waitFor(() => campaign(created.id), finished, 10_000);
    expect(done.status).toBe('completed');
    const sentAt = Date.parse((await outbox()).find((m) => m.body === body)?.sentAt ?? '');
    expect(sentAt).toBeGreaterThanOrEqual(Date.parse(at));
  });

  it('starts at once, and says so, a campaign whose time passed while the server was down', async () => {
    const body = uniqueText('Atrasado');
    const { campaign: created } = (await create({ message: body, numbers: '447700900751', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() })).json<{ campaign: TCampaign }>();
    // What a server that was down at the campaign's time finds when it starts again.
    await t.ctx.db
      .updateTable('campaigns')
      .set({ scheduledAt: new Date(Date.now() - 5 * 60_000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    const done = await waitFor(() => campaign(created.id), finished, 10_000);
    expect(done).toMatchObject({ status: 'completed', note: 'startedLate' });
    expect((await outbox()).filter((m) => m.body === body)).toHaveLength(1);
  });

  it('edits and cancels a scheduled campaign; DISPARAR (sendAgendamento) starts the day’s ones on that connection now', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const body = uniqueText('Dia');
    const { campaign: created } = (await create({ message: body, numbers: '447700900801', scheduledAt: later.toISOString() })).json<{ campaign: TCampaign }>();
    const edited = await t.request({ method: 'PUT', url: `/api/campaigns/${created.id}`, token: t.adminToken, payload: { message: `${body}!`, minDelay: 0, maxDelay: 1 } });
    expect(edited.json()).toMatchObject({ message: `${body}!`, status: 'scheduled' });

    const other = (await create({ message: uniqueText('Cancelado'), numbers: '447700900802', scheduledAt: later.toISOString() })).json<{ campaign: TCampaign }>().campaign;
    expect((await t.request({ method: 'POST', url: `/api/campaigns/${other.id}/cancel`, token: t.adminToken })).json()).toMatchObject({ status: 'cancelled' });

    const pad = (n: number) => String(n).padStart(2, '0');
    const day = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}`;
    const fired = await t.request({ method: 'POST', url: '/api/sendAgendamento', token: t.adminToken, payload: { dataEnvio: day, ticketwhatsappId: phone } });
    expect(fired.statusCode).toBe(200);
    expect(fired.json<{ started: number[] }>().started).toEqual([created.id]);
    await waitFor(() => campaign(created.id), finished);
    expect((await outbox()).filter((m) => m.body === `${body}!`)).toHaveLength(1);
    expect((await campaign(other.id)).counts).toMatchObject({ cancelled: 1, sent: 0 });
  });
});

describe('who sees what', () => {
  it('a user sees their own campaigns only; admins see all; progress goes to the author and admins', async () => {
    const author = await t.createUser();
    const stranger = await t.createUser();
    const res = await create({ message: uniqueText('Meu'), numbers: '447700900901' }, author.token);
    expect(res.statusCode).toBe(201);
    const id = res.json<{ campaign: TCampaign }>().campaign.id;
    expect((await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: stranger.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/campaigns/${id}/cancel`, token: stranger.token })).json()).toMatchObject({ error: 'ERR_NO_CAMPAIGN_FOUND' });
    expect((await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: author.token })).statusCode).toBe(200);
    const mine = (await t.request({ method: 'GET', url: '/api/campaigns', token: author.token })).json<TCampaignList>();
    expect(mine.campaigns.map((c) => c.id)).toEqual([id]);
    expect((await t.request({ method: 'GET', url: '/api/campaigns', token: stranger.token })).json<TCampaignList>().count).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/campaigns', token: t.adminToken })).json<TCampaignList>().campaigns.map((c) => c.id)).toContain(id);
    expect((await t.request({ method: 'GET', url: '/api/campaigns' })).statusCode).toBe(401);
  });
});

describe('history', () => {
  it('filters by status, connection and number, and exports zdg.csv with a BOM and defused cells', async () => {
    const body = uniqueText('Histórico');
    const { campaign: created } = (await create({ message: body, numbers: '447700901001\n=cmd|calc' })).json<{ campaign: TCampaign }>();
    await waitFor(() => campaign(created.id), finished);
    const byNumber = (await t.request({ method: 'GET', url: '/api/campaigns?number=7700901001', token: t.adminToken })).json<TCampaignList>();
    expect(byNumber.campaigns.map((c) => c.id)).toEqual([created.id]);
    const byStatus = (await t.request({ method: 'GET', url: `/api/campaigns?status=completed&whatsappId=${phone}`, token: t.adminToken })).json<TCampaignList>();
    expect(byStatus.campaigns.every((c) => c.status === 'completed' && c.whatsappId === phone)).toBe(true);
    expect((await t.request({ method: 'GET', url: '/api/campaigns?status=nope', token: t.adminToken })).json()).toMatchObject({ error: 'ERR_VALIDATION' });

    const csv = await t.request({ method: 'GET', url: '/api/campaigns/export?number=7700901001', token: t.adminToken });
    expect(csv.headers['content-disposition']).toContain('zdg.csv');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const lines = csv.body.slice(1).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"447700901001"');
    expect(lines[1]).toContain('"sent"');
    // The typed line that looks like a formula is written so a spreadsheet does not run it.
    expect(lines[2]).toContain(`"'=cmd|calc"`);
  });

  it("puts the campaign's message in the contact's ticket when there is one", async () => {
    // The network reports this contact without the 9 that the bulk rule adds: still the same person.
    const from = '551187650001';
    expect(
      (await t.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: t.adminToken, payload: { from, name: 'Cliente Promo', body: 'oi, quero saber da promoção' } })).statusCode,
    ).toBe(200);
    const tickets = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${from}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets,
      (list) => list.length > 0,
    );
    const ticket = tickets[0];
    if (!ticket) throw new Error('no ticket');
    const body = uniqueText('No ticket');
    const { campaign: created } = (await create({ message: body, numbers: from })).json<{ campaign: TCampaign }>();
    await waitFor(() => campaign(created.id), finished);
    const messages = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages;
    expect(messages.find((m) => m.body === body)).toMatchObject({ fromMe: true, sendStatus: 'sent' });
    expect((await outbox()).filter((m) => m.body === body)).toHaveLength(1);
  });
});

describe('sends in doubt after a crash', () => {
  async function scheduledCampaign(whatsappId: number, numbers: string[]): Promise<number> {
    const res = await create({ whatsappId, message: uniqueText('Dúvida'), numbers: numbers.join('\n'), scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(res.statusCode).toBe(201);
    return res.json<{ campaign: TCampaign }>().campaign.id;
  }

  /** What a crash between the claim and the result leaves: the recipient 'sending', with its id. */
  async function leaveSending(campaignId: number, number: string, providerId: string): Promise<void> {
    await t.ctx.db.updateTable('campaignRecipients').set({ status: 'sending', providerId }).where('campaignId', '=', campaignId).where('number', '=', number).execute();
  }

  async function statusOf(campaignId: number, number: string) {
    return t.ctx.db.selectFrom('campaignRecipients').select(['status', 'error', 'providerId']).where('campaignId', '=', campaignId).where('number', '=', number).executeTakeFirstOrThrow();
  }

  it('asks the phone: what it has is sent, what it never got goes again under the same id', async () => {
    const id = await scheduledCampaign(phone, ['447700901101', '447700901102']);
    const driver = t.sessions.driver(phone);
    if (!driver) throw new Error('no driver');
    await driver.send({ kind: 'person', number: '447700901101' }, { kind: 'text', body: 'got it' }, { providerId: 'DOUBT-HAS' });
    await leaveSending(id, '447700901101', 'DOUBT-HAS');
    await leaveSending(id, '447700901102', 'DOUBT-NOT');
    expect(await recoverInDoubt(t.ctx, phone, driver)).toEqual([id]);
    expect(await statusOf(id, '447700901101')).toMatchObject({ status: 'sent', providerId: 'DOUBT-HAS' });
    expect(await statusOf(id, '447700901102')).toMatchObject({ status: 'queued', providerId: 'DOUBT-NOT' });
  });

  it("marks 'unknown' what the phone cannot confirm, never resends it, and an ack for its id settles it as sent", async () => {
    // A connection whose session is not on this node: nobody can be asked.
    const away = await t.insertWhatsapp({ name: `Away ${Date.now()}` });
    const id = await scheduledCampaign(away.id, ['447700901201']);
    await leaveSending(id, '447700901201', 'DOUBT-ASK');
    const errors: unknown[] = [];
    const stop = await startCampaignSender(t.ctx, t.sessions, (error) => errors.push(error));
    try {
      expect(await statusOf(id, '447700901201')).toMatchObject({ status: 'unknown', error: 'ERR_SEND_IN_DOUBT', providerId: 'DOUBT-ASK' });
      t.ctx.events.publish('channel.ack', { whatsappId: away.id, providerId: 'DOUBT-ASK', ack: 2 });
      await waitFor(
        () => statusOf(id, '447700901201'),
        (r) => r.status === 'sent',
      );
    } finally {
      await stop();
    }
  });
});
