/** Labels through the API: the ticket list and contacts filtered by label, the contacts export's column, a bulk send to a label. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TRecipientList } from '@zapdesk/shared/campaigns';
import { csvRows } from '@zapdesk/shared/csv';
import type { TLabel } from '@zapdesk/shared/labels';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
let phone: number;
let made = 0;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Labels phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
});
afterAll(async () => {
  await t.close();
});

async function createLabel(name?: string, color = '#1E88E5'): Promise<TLabel> {
  made += 1;
  const res = await t.request({ method: 'POST', url: '/api/labels', token: t.adminToken, payload: { name: name ?? `Etiqueta ${made}`, color } });
  expect(res.statusCode).toBe(201);
  return res.json<TLabel>();
}

async function tickets(query: string, token = t.adminToken): Promise<TTicket[]> {
  const res = await t.request({ method: 'GET', url: `/api/tickets?${query}`, token });
  expect(res.statusCode).toBe(200);
  return res.json<{ tickets: TTicket[] }>().tickets;
}

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);

describe('the ticket list filtered by label', () => {
  it('keeps only the tickets carrying any of the labels, on every tab and in a search', async () => {
    const vip = await createLabel();
    const late = await createLabel();
    const a = await t.inboundTicket(phone, 'filtro etiqueta');
    const b = await t.inboundTicket(phone, 'filtro etiqueta');
    const c = await t.inboundTicket(phone, 'filtro etiqueta');
    await t.request({ method: 'POST', url: `/api/tickets/${a.id}/labels`, token: t.adminToken, payload: { labelId: vip.id } });
    await t.request({ method: 'POST', url: `/api/tickets/${b.id}/labels`, token: t.adminToken, payload: { labelId: late.id } });

    expect(ids(await tickets(`status=pending&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    expect(ids(await tickets(`status=pending&showAll=true&labelIds=${vip.id},${late.id}`))).toEqual([a.id, b.id]);
    expect(ids(await tickets(`showAll=true&searchParam=${encodeURIComponent('filtro etiqueta')}&labelIds=[${late.id}]`))).toEqual([b.id]);
    expect(ids(await tickets(`showAll=true&searchParam=${encodeURIComponent('filtro etiqueta')}`))).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    // The 'open' tab: accepted by an agent, still filtered.
    await t.request({ method: 'PUT', url: `/api/tickets/${a.id}`, token: t.adminToken, payload: { status: 'open' } });
    expect(ids(await tickets(`status=open&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    expect(ids(await tickets(`status=pending&showAll=true&labelIds=[${vip.id}]`))).toEqual([]);
    // 'Resolvidos'.
    await t.request({ method: 'PUT', url: `/api/tickets/${a.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(ids(await tickets(`status=closed&showAll=true&labelIds=[${vip.id}]`))).toEqual([a.id]);
    const res = await t.request({ method: 'GET', url: `/api/tickets?status=closed&showAll=true&labelIds=[${vip.id}]`, token: t.adminToken });
    expect(res.json()).toMatchObject({ count: 1 });
  });

  it('never widens what an agent sees', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const other = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [queue.id] });
    const mine = await t.inboundTicket(phone);
    const theirs = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${mine.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    await t.request({ method: 'PUT', url: `/api/tickets/${theirs.id}`, token: t.adminToken, payload: { queueId: other.id } });
    for (const id of [mine.id, theirs.id]) await t.request({ method: 'POST', url: `/api/tickets/${id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(ids(await tickets(`status=pending&labelIds=[${label.id}]`, token))).toEqual([mine.id]);
  });

  it('refuses a malformed filter with 400', async () => {
    for (const bad of ['[0]', 'abc', '[1,"x"]', '1,,2', `[${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}]`]) {
      const res = await t.request({ method: 'GET', url: `/api/tickets?labelIds=${encodeURIComponent(bad)}`, token: t.adminToken });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { labelIds: 'INVALID' } });
    }
  });
});

describe('labels on contacts', () => {
  it('puts a label on a contact, filters the contacts by it, and the CSV export has a labels column', async () => {
    const label = await createLabel('Cliente fiel');
    const second = await createLabel('Atacado');
    const tagged = await t.createContact({ name: 'Ana Etiquetada' });
    const plain = await t.createContact({ name: 'Bruno Sem' });
    const on = await t.request({ method: 'POST', url: `/api/contacts/${tagged.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    expect(on.statusCode).toBe(200);
    expect(on.json<TContact>().labels).toEqual([{ id: label.id, name: 'Cliente fiel', color: label.color }]);
    await t.request({ method: 'POST', url: `/api/contacts/${tagged.id}/labels`, token: t.adminToken, payload: { labelId: second.id } });

    const filtered = (await t.request({ method: 'GET', url: `/api/contacts?labelIds=[${label.id}]`, token: t.adminToken })).json<{ contacts: TContact[]; count: number }>();
    expect(filtered.contacts.map((c) => c.id)).toEqual([tagged.id]);
    expect(filtered.count).toBe(1);
    const searched = (await t.request({ method: 'GET', url: `/api/contacts?searchParam=Bruno%20Sem&labelIds=[${label.id}]`, token: t.adminToken })).json<{ contacts: TContact[] }>();
    expect(searched.contacts).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/api/contacts/${plain.id}`, token: t.adminToken })).json<TContact>().labels).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/api/contacts?labelIds=nope', token: t.adminToken })).statusCode).toBe(400);

    const csv = await t.request({ method: 'GET', url: '/api/contacts/export', token: t.adminToken });
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csvRows(csv.body.replace(/^\uFEFF/, ''));
    expect(header).toEqual(['name', 'number', 'email', 'labels']);
    expect(rows.find((r) => r[0] === 'Ana Etiquetada')?.[3]).toBe('Atacado, Cliente fiel');
    expect(rows.find((r) => r[0] === 'Bruno Sem')?.[3]).toBe('');

    const off = await t.request({ method: 'DELETE', url: `/api/contacts/${tagged.id}/labels/${second.id}`, token: t.adminToken });
    expect(off.json<TContact>().labels.map((l) => l.id)).toEqual([label.id]);
  });

  it('a contact the agent cannot see cannot be labelled', async () => {
    const label = await createLabel();
    const queue = await t.createQueue();
    const { token } = await t.createUser({ queueIds: [] });
    const ticket = await t.inboundTicket(phone);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { queueId: queue.id } });
    const res = await t.request({ method: 'POST', url: `/api/contacts/${ticket.contactId}/labels`, token, payload: { labelId: label.id } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
  });
});

describe('a bulk send to a label', () => {
  it('reaches the phones of the contacts with the label, stored like typed numbers', async () => {
    const label = await createLabel();
    const first = await t.createContact({ name: 'Campanha Um', number: '5511987650101' });
    const second = await t.createContact({ name: 'Campanha Dois', number: '5511987650102' });
    await t.createContact({ name: 'Campanha Fora', number: '5511987650103' });
    for (const c of [first, second]) await t.request({ method: 'POST', url: `/api/contacts/${c.id}/labels`, token: t.adminToken, payload: { labelId: label.id } });
    const body = `Oferta para a etiqueta ${Date.now()}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: phone, labelId: label.id, message: body, minDelay: 0, maxDelay: 0 },
    });
    expect(res.statusCode).toBe(201);
    const { campaign } = res.json<{ campaign: TCampaign }>();
    expect(campaign.total).toBe(2);
    // Taken off after creation: the recipients were read at creation and stay.
    await t.request({ method: 'DELETE', url: `/api/contacts/${second.id}/labels/${label.id}`, token: t.adminToken });

    const done = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}`, token: t.adminToken })).json<TCampaign>(),
      (c) => c.status === 'completed',
    );
    expect(done.counts.sent).toBe(2);
    const recipients = (await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}/recipients`, token: t.adminToken })).json<TRecipientList>();
    expect(recipients.recipients.map((r) => r.input).sort()).toEqual(['5511987650101', '5511987650102']);
    const outbox = (await t.request({ method: 'GET', url: `/api/simulator/${phone}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
    expect(
      outbox
        .filter((m) => m.body === body)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['5511987650101', '5511987650102']);
  });

  it('refuses a label without contacts, an unknown label, and neither numbers nor label', async () => {
    const empty = await createLabel();
    const base = { kind: 'text', whatsappId: phone, message: 'x', minDelay: 0, maxDelay: 0 };
    const none = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: { ...base, labelId: empty.id } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'ERR_NO_RECIPIENTS', fields: { labelId: 'REQUIRED' } });
    const unknown = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: { ...base, labelId: 999999 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_LABEL_FOUND' });
    const neither = await t.request({ method: 'POST', url: '/api/campaigns', token: t.adminToken, payload: base });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { numbers: 'REQUIRED' } });
  });
});
