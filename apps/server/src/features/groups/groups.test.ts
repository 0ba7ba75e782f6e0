/** Group tools through the API on the simulated phone: list, create, rename, describe, open, close, messages, the tool API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign, TCampaignList, TRecipientList } from '@zapdesk/shared/campaigns';
import type { TGroupCreated, TGroupList, TSimulatorGroup, TSimulatorGroupCreate, TSimulatorGroups } from '@zapdesk/shared/groups';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { recoverInDoubt } from '../campaigns/campaign-send.js';

let t: TestApp;
let phone: number;
let apiToken: string;
let n = 0;

/** A participant number no other test uses. */
const member = () => `44770097${String((n += 1)).padStart(4, '0')}`;

async function linkPhone(name: string): Promise<number> {
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name, channel: 'simulator' } });
  const id = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: t.adminToken });
  return id;
}

async function simGroup(input: TSimulatorGroupCreate, connectionId = phone): Promise<TSimulatorGroup> {
  const res = await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/groups`, token: t.adminToken, payload: input });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function simGroups(connectionId = phone): Promise<TSimulatorGroups> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/groups`, token: t.adminToken })).json();
}

async function simGroupById(id: string, connectionId = phone): Promise<TSimulatorGroup | undefined> {
  return (await simGroups(connectionId)).groups.find((g) => g.id === id);
}

async function outbox(connectionId = phone): Promise<TSimulatorOutboxItem[]> {
  return (await t.request({ method: 'GET', url: `/api/simulator/${connectionId}/outbox`, token: t.adminToken })).json();
}

async function action(payload: Record<string, unknown>, token = t.adminToken) {
  return t.request({ method: 'POST', url: '/api/groups/actions', token, payload: { whatsappId: phone, ...payload } });
}

async function finished(id: number): Promise<TCampaign> {
  return waitFor(
    async () => (await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: t.adminToken })).json<TCampaign>(),
    (c) => c.status === 'completed' || c.status === 'cancelled',
    30_000,
  );
}

async function results(id: number, token = t.adminToken): Promise<TRecipientList> {
  return (await t.request({ method: 'GET', url: `/api/campaigns/${id}/recipients`, token })).json();
}

async function campaignCount(): Promise<number> {
  return (await t.request({ method: 'GET', url: '/api/campaigns', token: t.adminToken })).json<TCampaignList>().count;
}

beforeAll(async () => {
  // Fast enough for tests, slow enough to measure: 1 to 2 s between two groups.
  t = await createTestApp({ SIMULATOR: 'on', GROUP_PACE_SECONDS: '1-2' });
  phone = await linkPhone('Groups phone');
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
  apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
});
afterAll(async () => {
  await t.close();
});

describe('the groups of a connection', () => {
  it('lists every group with its name, description, size, whether the phone is admin and whether it is closed', async () => {
    const admin = await simGroup({ subject: 'Clientes VIP', description: 'Ofertas', participants: [{ number: member() }, { number: member(), admin: true }] });
    const closed = await simGroup({ subject: 'Avisos', announce: true, phoneIsAdmin: false, participants: [{ number: member(), admin: true }] });
    const res = await t.request({ method: 'GET', url: `/api/groups?whatsappId=${phone}`, token: t.adminToken });
    expect(res.statusCode).toBe(200);
    const groups = res.json<TGroupList>().groups;
    expect(groups.find((g) => g.id === admin.id)).toEqual({ id: admin.id, subject: 'Clientes VIP', description: 'Ofertas', size: 3, isAdmin: true, announce: false, restrict: false });
    expect(groups.find((g) => g.id === closed.id)).toMatchObject({ subject: 'Avisos', size: 2, isAdmin: false, announce: true });
  });

  it('answers ERR_WAPP_NOT_INITIALIZED while the phone is away, and 404 for an unknown connection', async () => {
    const away = await linkPhone('Away phone');
    await t.request({ method: 'POST', url: `/api/simulator/${away}/disconnect`, token: t.adminToken });
    const res = await t.request({ method: 'GET', url: `/api/groups?whatsappId=${away}`, token: t.adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await t.request({ method: 'GET', url: '/api/groups?whatsappId=999999', token: t.adminToken })).json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
  });
});

describe('creating a group', () => {
  it('adds the typed numbers (Brazilian rule applied) and picked contacts, and names what could not be added and why', async () => {
    const contact = await t.createContact({ name: 'Joana', number: '5511966660001' });
    const res = await t.request({
      method: 'POST',
      url: '/api/groups',
      token: t.adminToken,
      payload: {
        whatsappId: phone,
        title: 'Turma de março',
        participants: '5511987650001\n(55) 11 8765-0002\n\nnot a number\n+999 1112-2233\n+997 1123-4567\n5511987650001',
        contactIds: [contact.id],
      },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<TGroupCreated>();
    expect(created.group).toMatchObject({ subject: 'Turma de março', isAdmin: true, size: 4 });
    expect(created.added.sort()).toEqual(['5511966660001', '5511987650001', '5511987650002']);
    expect(created.failed).toEqual([
      { input: 'not a number', number: null, error: 'ERR_WAPP_INVALID_CONTACT' },
      { input: '+999 1112-2233', number: '99911122233', error: 'ERR_WAPP_INVALID_CONTACT' },
      { input: '+997 1123-4567', number: '99711234567', error: 'ERR_GROUP_ADD_REFUSED' },
    ]);
    const onPhone = await simGroupById(created.group.id);
    expect(onPhone?.participants.map((p) => p.number).sort()).toEqual([(await simGroups()).ownNumber, '5511966660001', '5511987650001', '5511987650002'].sort());
  });

  it('refuses a group without a title or without any member, and stores nothing on the phone', async () => {
    const before = (await simGroups()).groups.length;
    const noTitle = await t.request({ method: 'POST', url: '/api/groups', token: t.adminToken, payload: { whatsappId: phone, title: '  ', participants: '5511987650001' } });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { title: 'REQUIRED' } });
    const noMember = await t.request({ method: 'POST', url: '/api/groups', token: t.adminToken, payload: { whatsappId: phone, title: 'Vazio', participants: 'abc' } });
    expect(noMember.statusCode).toBe(400);
    expect(noMember.json()).toMatchObject({ error: 'ERR_NO_RECIPIENTS' });
    expect((await simGroups()).groups.length).toBe(before);
  });

  it('a group created here becomes a group ticket when someone writes in it (group messages accepted)', async () => {
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'disabled' } });
    const writer = member();
    const created = (await t.request({ method: 'POST', url: '/api/groups', token: t.adminToken, payload: { whatsappId: phone, title: 'Revendedores', participants: writer } })).json<TGroupCreated>();
    await t.request({
      method: 'POST',
      url: `/api/simulator/${phone}/inbound`,
      token: t.adminToken,
      payload: { from: writer, name: 'Rev', body: 'Bom dia, grupo!', group: { id: created.group.id, subject: 'Revendedores' } },
    });
    const tickets = (await t.request({ method: 'GET', url: '/api/tickets?status=pending&showAll=true', token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    const ticket = tickets.find((tk) => tk.contact.number === created.group.id);
    expect(ticket).toMatchObject({ isGroup: true, lastMessage: 'Bom dia, grupo!' });
    await t.request({ method: 'PUT', url: '/api/settings/CheckMsgIsGroup', token: t.adminToken, payload: { value: 'enabled' } });
  });
});

describe('actions on groups', () => {
  it('renames the chosen groups; a restricted group where the phone is not admin is reported and left alone', async () => {
    const a = await simGroup({ subject: 'Old A', participants: [{ number: member() }] });
    const b = await simGroup({ subject: 'Old B', restrict: true, phoneIsAdmin: false, participants: [{ number: member(), admin: true }] });
    const res = await action({ action: 'subject', groupIds: [a.id, b.id], subject: 'Promoções de Natal' });
    expect(res.statusCode).toBe(202);
    const started = res.json<TCampaign>();
    expect(started).toMatchObject({ kind: 'groupSubject', audience: 'groups', total: 2, minDelay: 1, maxDelay: 2 });
    const done = await finished(started.id);
    expect(done.counts).toMatchObject({ sent: 1, notAdmin: 1 });
    const byGroup = new Map((await results(started.id)).recipients.map((r) => [r.groupId, r]));
    expect(byGroup.get(a.id)).toMatchObject({ status: 'sent', input: 'Old A', number: null });
    expect(byGroup.get(b.id)).toMatchObject({ status: 'notAdmin', error: 'ERR_GROUP_NOT_ADMIN' });
    expect((await simGroupById(a.id))?.subject).toBe('Promoções de Natal');
    expect((await simGroupById(b.id))?.subject).toBe('Old B');
  });

  it('sets the description of the chosen groups', async () => {
    const a = await simGroup({ subject: 'Desc A', participants: [{ number: member() }] });
    const done = await finished((await action({ action: 'description', groupIds: [a.id], description: 'Regras: sem spam.' })).json<TCampaign>().id);
    expect(done.counts.sent).toBe(1);
    expect((await simGroupById(a.id))?.description).toBe('Regras: sem spam.');
  });

  it('closes and opens groups with FECHAR and ABRIR typed; a group where the phone is not admin is skipped', async () => {
    const a = await simGroup({ subject: 'Turma A', participants: [{ number: member() }] });
    const notAdmin = await simGroup({ subject: 'Turma B', phoneIsAdmin: false, participants: [{ number: member(), admin: true }] });
    const closing = await finished((await action({ action: 'close', groupIds: [a.id, notAdmin.id], confirm: 'FECHAR' })).json<TCampaign>().id);
    expect(closing).toMatchObject({ kind: 'groupClose', counts: { sent: 1, notAdmin: 1 } });
    expect((await simGroupById(a.id))?.announce).toBe(true);
    expect((await simGroupById(notAdmin.id))?.announce).toBe(false);
    const opening = await finished((await action({ action: 'open', groupIds: [a.id], confirm: 'ABRIR' })).json<TCampaign>().id);
    expect(opening.counts.sent).toBe(1);
    expect((await simGroupById(a.id))?.announce).toBe(false);
  });

  it('sends a message in three groups, one at a time, 1 to 2 seconds apart; a closed group where the phone is not admin gets nothing', async () => {
    const groups = [
      await simGroup({ subject: 'M1', participants: [{ number: member() }] }),
      await simGroup({ subject: 'M2', participants: [{ number: member() }] }),
      await simGroup({ subject: 'M3', announce: true, participants: [{ number: member() }] }),
    ];
    const closed = await simGroup({ subject: 'M4', announce: true, phoneIsAdmin: false, participants: [{ number: member(), admin: true }] });
    const body = `Aviso aos grupos ${Date.now()}`;
    const res = await action({ action: 'message', groupIds: [...groups.map((g) => g.id), closed.id], message: body });
    expect(res.json<TCampaign>()).toMatchObject({ kind: 'text', audience: 'groups', total: 4 });
    const done = await finished(res.json<TCampaign>().id);
    expect(done.counts).toMatchObject({ sent: 3, notAdmin: 1 });
    const sent = (await outbox()).filter((m) => m.body === body);
    expect(sent.map((m) => m.to)).toEqual(groups.map((g) => `group:${g.id}`));
    const times = sent.map((m) => Date.parse(m.sentAt));
    for (let i = 1; i < times.length; i += 1) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(1_000);
      expect(gap).toBeLessThan(3_000);
    }
  });

  it('sends a private message to every participant of two overlapping groups: each once, never to the phone itself', async () => {
    const [p1, p2, p3, shared] = [member(), member(), member(), member()];
    const own = (await simGroups()).ownNumber;
    const g1 = await simGroup({ subject: 'P1', participants: [{ number: p1 }, { number: shared }, { number: own }] });
    const g2 = await simGroup({ subject: 'P2', phoneIsAdmin: false, participants: [{ number: shared, admin: true }, { number: p2 }, { number: p3 }] });
    const body = `Mensagem privada ${Date.now()}`;
    const res = await action({ action: 'participants', groupIds: [g1.id, g2.id], message: body });
    expect(res.statusCode).toBe(202);
    expect(res.json<TCampaign>()).toMatchObject({ kind: 'text', audience: 'participants', total: 4 });
    const done = await finished(res.json<TCampaign>().id);
    expect(done.counts.sent).toBe(4);
    const to = (await outbox()).filter((m) => m.body === body).map((m) => m.to);
    expect(to.sort()).toEqual([p1, p2, p3, shared].sort());
    expect(to).not.toContain(own);
  });

  it('can be cancelled: the groups not reached yet are cancelled and keep their name', async () => {
    const groups = [
      await simGroup({ subject: 'C1', participants: [{ number: member() }] }),
      await simGroup({ subject: 'C2', participants: [{ number: member() }] }),
      await simGroup({ subject: 'C3', participants: [{ number: member() }] }),
    ];
    const started = (await action({ action: 'subject', groupIds: groups.map((g) => g.id), subject: 'Renamed' })).json<TCampaign>();
    await waitFor(
      () => results(started.id),
      (r) => r.recipients.some((x) => x.status === 'sent'),
    );
    const cancelled = await t.request({ method: 'POST', url: `/api/campaigns/${started.id}/cancel`, token: t.adminToken });
    expect(cancelled.json<TCampaign>().status).toBe('cancelled');
    const counts = (await finished(started.id)).counts;
    expect(counts.sent + counts.cancelled).toBe(3);
    expect(counts.cancelled).toBeGreaterThanOrEqual(1);
    const names = await Promise.all(groups.map(async (g) => (await simGroupById(g.id))?.subject));
    expect(names.filter((s) => s === 'Renamed').length).toBe(counts.sent);
  });

  it('runs only on one combination of filled fields; anything else is ERR_GROUP_FIELDS and nothing is stored', async () => {
    const g = await simGroup({ subject: 'Combo', participants: [{ number: member() }] });
    const before = await campaignCount();
    const wrong: Record<string, unknown>[] = [
      { action: 'subject', subject: 'A', description: 'B' },
      { action: 'subject', subject: '   ' },
      { action: 'description', description: 'B', message: 'C' },
      { action: 'open', confirm: 'abrir' },
      { action: 'open', confirm: 'FECHAR' },
      { action: 'close', confirm: 'FECHAR', subject: 'x' },
      { action: 'message' },
      { action: 'message', message: 'hi', confirm: 'ABRIR' },
      { action: 'participants', message: 'hi', mediaUrl: 'http://127.0.0.1/x.png', mediaPath: 'x.png' },
    ];
    for (const payload of wrong) {
      const res = await action({ groupIds: [g.id], ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_GROUP_FIELDS' });
    }
    const unknown = await action({ action: 'subject', subject: 'X', groupIds: ['120363000000000001'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_GROUP_NOT_FOUND' });
    const badId = await action({ action: 'subject', subject: 'X', groupIds: ['abc@g.us'] });
    expect(badId.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(await campaignCount()).toBe(before);
    expect((await simGroupById(g.id))?.subject).toBe('Combo');
  });
});

describe('after a crash', () => {
  it('does a group action left in doubt again, and asks the phone about a group message left in doubt', async () => {
    const g = await simGroup({ subject: 'Doubt', participants: [{ number: member() }] });
    const rename = (await action({ action: 'subject', groupIds: [g.id], subject: 'Renamed once' })).json<TCampaign>();
    await finished(rename.id);
    const body = `Em dúvida ${Date.now()}`;
    const message = (await action({ action: 'message', groupIds: [g.id], message: body })).json<TCampaign>();
    await finished(message.id);
    // As if the server had died between each claim and its result.
    for (const id of [rename.id, message.id]) await t.ctx.db.updateTable('campaignRecipients').set({ status: 'sending' }).where('campaignId', '=', id).execute();
    const touched = await recoverInDoubt(t.ctx, phone, t.sessions.driver(phone));
    expect(touched.sort()).toEqual([rename.id, message.id].sort());
    expect((await results(rename.id)).recipients[0]?.status).toBe('queued');
    // The phone has the group message under its id: it is sent, not sent again.
    expect((await results(message.id)).recipients[0]?.status).toBe('sent');
  });
});

describe('the group calls of the tool API', () => {
  let second: number;
  let adminGroup: TSimulatorGroup;
  let memberGroup: TSimulatorGroup;
  beforeAll(async () => {
    second = await linkPhone('Tool API groups phone');
    adminGroup = await simGroup({ subject: 'API admin', participants: [{ number: member() }, { number: member() }] }, second);
    memberGroup = await simGroup({ subject: 'API member', phoneIsAdmin: false, participants: [{ number: member(), admin: true }] }, second);
  });

  it('without groupIds acts on every group where the phone is admin, with the token; 401 with a wrong token or none', async () => {
    const ok = await t.request({ method: 'POST', url: '/api/zdgGroups', payload: { subject: 'Renomeado pela API', token: apiToken, ticketwhatsappId: second } });
    expect(ok.statusCode).toBe(202);
    const { id } = ok.json<{ id: number; status: string }>();
    const done = await finished(id);
    expect(done).toMatchObject({ total: 1, source: 'api', counts: { sent: 1 } });
    expect((await simGroupById(adminGroup.id, second))?.subject).toBe('Renomeado pela API');
    expect((await simGroupById(memberGroup.id, second))?.subject).toBe('API member');
    // The per-group results, with the token too.
    const perGroup = await t.request({ method: 'GET', url: `/api/campaigns/${id}/recipients`, headers: { authorization: `Bearer ${apiToken}` } });
    expect(perGroup.json<TRecipientList>().recipients).toEqual([expect.objectContaining({ groupId: adminGroup.id, status: 'sent' })]);

    for (const path of ['/api/zdgGroups', '/api/zdgGroupsDescription', '/api/zdgGroupsCreate', '/api/zdgGroupsMessage', '/api/zdgOpenGroup', '/api/zdgCloseGroup']) {
      const wrong = await t.request({ method: 'POST', url: path, payload: { subject: 'x', token: 'wrong-token', ticketwhatsappId: second } });
      expect(wrong.statusCode, path).toBe(401);
      const none = await t.request({ method: 'POST', url: path, payload: { subject: 'x', ticketwhatsappId: second } });
      expect(none.statusCode, path).toBe(401);
    }
  });

  it('describes, closes and opens with the token, and a session works as well', async () => {
    const description = await t.request({ method: 'POST', url: '/api/zdgGroupsDescription', payload: { description: 'Descrição via API', token: apiToken, ticketwhatsappId: second } });
    await finished(description.json<{ id: number }>().id);
    expect((await simGroupById(adminGroup.id, second))?.description).toBe('Descrição via API');

    const close = await t.request({ method: 'POST', url: '/api/zdgCloseGroup', payload: { token: apiToken, ticketwhatsappId: second, groupIds: [adminGroup.id, memberGroup.id] } });
    const closed = await finished(close.json<{ id: number }>().id);
    expect(closed.counts).toMatchObject({ sent: 1, notAdmin: 1 });
    expect((await simGroupById(adminGroup.id, second))?.announce).toBe(true);

    const open = await t.request({ method: 'POST', url: '/api/zdgOpenGroup', token: t.adminToken, payload: { ticketwhatsappId: second } });
    expect(open.statusCode).toBe(202);
    await finished(open.json<{ id: number }>().id);
    expect((await simGroupById(adminGroup.id, second))?.announce).toBe(false);
  });

  it('zdgGroupsMessage takes exactly one of newMessageGroup and newMessAgeGroupNasa', async () => {
    const before = await campaignCount();
    for (const payload of [{}, { newMessageGroup: 'a', newMessAgeGroupNasa: 'b' }, { newMessageGroup: '  ' }]) {
      const res = await t.request({ method: 'POST', url: '/api/zdgGroupsMessage', payload: { ...payload, token: apiToken, ticketwhatsappId: second } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_GROUP_FIELDS' });
    }
    expect(await campaignCount()).toBe(before);

    const body = `Para os participantes ${Date.now()}`;
    const res = await t.request({ method: 'POST', url: '/api/zdgGroupsMessage', payload: { newMessAgeGroupNasa: body, token: apiToken, ticketwhatsappId: second } });
    const done = await finished(res.json<{ id: number }>().id);
    expect(done).toMatchObject({ audience: 'participants', counts: { sent: 2 } });
    const own = (await simGroups(second)).ownNumber;
    const to = (await outbox(second)).filter((m) => m.body === body).map((m) => m.to);
    expect(to.sort()).toEqual(
      adminGroup.participants
        .map((p) => p.number)
        .filter((number) => number !== own)
        .sort(),
    );
  });

  it('zdgGroupsCreate creates a group from `contact` and answers what could not be added', async () => {
    const [a, b] = [member(), member()];
    const res = await t.request({ method: 'POST', url: '/api/zdgGroupsCreate', payload: { title: 'Criado via API', contact: `${a}, ${b}, +99901234567`, token: apiToken, ticketwhatsappId: second } });
    expect(res.statusCode).toBe(201);
    const created = res.json<TGroupCreated>();
    expect(created.added.sort()).toEqual([a, b].sort());
    expect(created.failed).toEqual([{ input: '+99901234567', number: '99901234567', error: 'ERR_WAPP_INVALID_CONTACT' }]);
    expect((await simGroupById(created.group.id, second))?.subject).toBe('Criado via API');
  });

  it('answers ERR_NO_GROUPS when the connection is admin of no group', async () => {
    const lonely = await linkPhone('No admin groups');
    await simGroup({ subject: 'Only member', phoneIsAdmin: false, participants: [{ number: member(), admin: true }] }, lonely);
    const res = await t.request({ method: 'POST', url: '/api/zdgCloseGroup', payload: { token: apiToken, ticketwhatsappId: lonely } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_GROUPS' });
  });
});
