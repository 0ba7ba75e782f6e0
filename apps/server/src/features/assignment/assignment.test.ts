/**
 * Auto-assignment through the real API, the simulator and real sockets (presence): the queue's
 * switch and limit, round-robin order among online agents, the limit, agents going offline,
 * nobody online, and the later pick-up of waiting tickets (oldest first).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localPartsAt, type BusinessHours } from '@zapdesk/shared/business-hours';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { agentsOf, assigned, customerWrites, goOffline, goOnline, queueOnConnection, ticketById, turnOn, waiting, type Agent } from '../../test/assignment-fixture.js';

let t: TestApp;
let url: string;
const everyone: Agent[] = [];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  url = await t.listen();
});
afterAll(async () => {
  for (const agent of everyone) agent.socket?.close();
  await t.close();
});

async function team(queueId: number, names: string[]): Promise<Agent[]> {
  const agents = await agentsOf(t, queueId, names);
  everyone.push(...agents);
  return agents;
}

async function resolve(agent: Agent, ticketId: number): Promise<void> {
  const res = await t.request({ method: 'PUT', url: `/api/tickets/${ticketId}`, token: agent.token, payload: { status: 'closed' } });
  expect(res.statusCode).toBe(200);
}

describe('the queue setting', () => {
  it('is off with a limit of 3 until an admin changes it; agents may not; bad input is refused', async () => {
    const { queueId } = await queueOnConnection(t, 'Config');
    const read = await t.request({ method: 'GET', url: `/api/queue/${queueId}/assignment`, token: t.adminToken });
    expect(read.json()).toEqual({ queueId, enabled: false, maxPerAgent: 3 });
    const [agent] = await team(queueId, ['Agente Config']);
    if (!agent) throw new Error('no agent');
    const forbidden = await t.request({ method: 'PUT', url: `/api/queue/${queueId}/assignment`, token: agent.token, payload: { enabled: true, maxPerAgent: 2 } });
    expect(forbidden.statusCode).toBe(403);
    for (const payload of [{ enabled: true, maxPerAgent: 0 }, { enabled: 'yes', maxPerAgent: 2 }, { enabled: true }]) {
      const bad = await t.request({ method: 'PUT', url: `/api/queue/${queueId}/assignment`, token: t.adminToken, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const missing = await t.request({ method: 'PUT', url: `/api/queue/999999/assignment`, token: t.adminToken, payload: { enabled: true, maxPerAgent: 2 } });
    expect(missing.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    const saved = await t.request({ method: 'PUT', url: `/api/queue/${queueId}/assignment`, token: t.adminToken, payload: { enabled: true, maxPerAgent: 5 } });
    expect(saved.json()).toEqual({ queueId, enabled: true, maxPerAgent: 5 });
    expect((await t.request({ method: 'GET', url: `/api/queue/${queueId}/assignment`, token: t.adminToken })).json()).toEqual({ queueId, enabled: true, maxPerAgent: 5 });
  });

  it('while off, a new ticket waits even with agents online', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Desligada');
    const [agent] = await team(queueId, ['Agente Desligada']);
    if (!agent) throw new Error('no agent');
    await goOnline(url, agent);
    const ticket = await customerWrites(t, whatsappId, waiting);
    // A later sweep would not take it either.
    await new Promise((r) => setTimeout(r, 300));
    expect(await ticketById(t, ticket.id)).toMatchObject({ status: 'pending', userId: null, queueId });
  });
});

describe('round-robin among online agents', () => {
  it('gives new tickets to three online agents in turn, live as an accept, up to the limit; the rest waits and is picked up oldest first when a place frees', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Rodizio');
    const agents = await team(queueId, ['Ana', 'Bruno', 'Carla']);
    for (const agent of agents) await goOnline(url, agent);
    await turnOn(t, queueId, 2);

    const owners: number[] = [];
    for (let i = 0; i < 6; i += 1) owners.push((await customerWrites(t, whatsappId, assigned)).userId ?? 0);
    const [ana, bruno, carla] = agents.map((a) => a.id);
    expect(owners).toEqual([ana, bruno, carla, ana, bruno, carla]);

    // Each agent heard their tickets arrive in 'Atendendo', as an accept is heard.
    for (const agent of agents) {
      await vi.waitFor(() => expect(new Set(agent.heard.filter((x) => x.status === 'open' && x.userId === agent.id).map((x) => x.id)).size).toBe(2));
    }

    // Everyone is at the limit: the next two wait.
    const seventh = await customerWrites(t, whatsappId, waiting);
    const eighth = await customerWrites(t, whatsappId, waiting);
    expect(seventh.id).toBeLessThan(eighth.id);

    // Bruno resolves one: the oldest waiting ticket is his, the newer one keeps waiting.
    const brunos = (await t.request({ method: 'GET', url: '/api/tickets?status=open', token: agents[1]?.token ?? '' })).json<{ tickets: { id: number; userId: number }[] }>().tickets;
    const first = brunos.find((x) => x.userId === bruno);
    if (!first || !agents[1]) throw new Error('no ticket of Bruno');
    await resolve(agents[1], first.id);
    await vi.waitFor(async () => expect(await ticketById(t, seventh.id)).toMatchObject({ status: 'open', userId: bruno }));
    expect(await ticketById(t, eighth.id)).toMatchObject({ status: 'pending', userId: null });
  });

  it('skips an agent who went offline, and gives them tickets again once back', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Ausente');
    const agents = await team(queueId, ['Davi', 'Eva', 'Fabio']);
    const [davi, eva, fabio] = agents;
    if (!davi || !eva || !fabio) throw new Error('agents missing');
    for (const agent of agents) await goOnline(url, agent);
    await turnOn(t, queueId, 10);
    expect((await customerWrites(t, whatsappId, assigned)).userId).toBe(davi.id);
    await goOffline(t, eva);
    const owners: number[] = [];
    for (let i = 0; i < 4; i += 1) owners.push((await customerWrites(t, whatsappId, assigned)).userId ?? 0);
    expect(owners).toEqual([fabio.id, davi.id, fabio.id, davi.id]);
    await goOnline(url, eva);
    expect((await customerWrites(t, whatsappId, assigned)).userId).toBe(eva.id);
  });

  it('with nobody online the tickets wait; the first agent to come online gets them, oldest first, up to the limit', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Madrugada');
    const [gil, hana] = await team(queueId, ['Gil', 'Hana']);
    if (!gil || !hana) throw new Error('agents missing');
    await turnOn(t, queueId, 2);
    const tickets = [];
    for (let i = 0; i < 3; i += 1) tickets.push(await customerWrites(t, whatsappId, waiting));
    await new Promise((r) => setTimeout(r, 300));
    for (const ticket of tickets) expect(await ticketById(t, ticket.id)).toMatchObject({ status: 'pending', userId: null });

    await goOnline(url, gil);
    const [oldest, second, newest] = tickets;
    if (!oldest || !second || !newest) throw new Error('tickets missing');
    await vi.waitFor(async () => expect(await ticketById(t, second.id)).toMatchObject({ status: 'open', userId: gil.id }));
    expect(await ticketById(t, oldest.id)).toMatchObject({ status: 'open', userId: gil.id });
    expect(await ticketById(t, newest.id)).toMatchObject({ status: 'pending', userId: null });
    // Gil heard them arrive without asking.
    await vi.waitFor(() => expect(gil.heard.filter((x) => x.status === 'open' && x.userId === gil.id).map((x) => x.id)).toEqual(expect.arrayContaining([oldest.id, second.id])));

    await goOnline(url, hana);
    await vi.waitFor(async () => expect(await ticketById(t, newest.id)).toMatchObject({ status: 'open', userId: hana.id }));
  });

  it('takes back a returned ticket for the next agent in turn, and turning it on hands out what already waited', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Devolvida');
    const [ivo, jade] = await team(queueId, ['Ivo', 'Jade']);
    if (!ivo || !jade) throw new Error('agents missing');
    await goOnline(url, ivo);
    await goOnline(url, jade);
    const before = await customerWrites(t, whatsappId, waiting);
    await turnOn(t, queueId, 3);
    await vi.waitFor(async () => expect(await ticketById(t, before.id)).toMatchObject({ status: 'open', userId: ivo.id }));
    // Ivo gives it back to the queue: it goes to Jade, whose turn it is.
    const back = await t.request({ method: 'PUT', url: `/api/tickets/${before.id}`, token: ivo.token, payload: { status: 'pending' } });
    expect(back.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await ticketById(t, before.id)).toMatchObject({ status: 'open', userId: jade.id }));
  });

  it('hands nothing out while the queue is closed by its business hours; once it opens, the sweep hands out what waited', async () => {
    const { queueId, whatsappId } = await queueOnConnection(t, 'Horario');
    const [lia] = await team(queueId, ['Lia']);
    if (!lia) throw new Error('agent missing');
    await goOnline(url, lia);
    await turnOn(t, queueId, 3);
    // The same two hours every day, starting `start` hours from now in São Paulo (no DST).
    const hour = localPartsAt('America/Sao_Paulo', Date.now()).hour;
    const hoursFrom = (start: number): BusinessHours => {
      const from = (((hour + start) % 24) + 24) % 24;
      const ranges =
        from + 4 <= 24
          ? [{ from: `${String(from).padStart(2, '0')}:00`, to: from + 4 === 24 ? '24:00' : `${String(from + 4).padStart(2, '0')}:00` }]
          : [
              { from: '00:00', to: `${String(from + 4 - 24).padStart(2, '0')}:00` },
              { from: `${String(from).padStart(2, '0')}:00`, to: '24:00' },
            ];
      return { timezone: 'America/Sao_Paulo', week: Array.from({ length: 7 }, () => ranges), holidays: [] };
    };
    const setHours = async (hours: BusinessHours) =>
      expect((await t.request({ method: 'PUT', url: `/api/business-hours/queues/${queueId}`, token: t.adminToken, payload: { ...hours, outOfHoursMessage: '' } })).statusCode).toBe(200);
    await setHours(hoursFrom(10));
    const ticket = await customerWrites(t, whatsappId, waiting);
    await new Promise((r) => setTimeout(r, 300));
    expect(await ticketById(t, ticket.id)).toMatchObject({ status: 'pending', userId: null });
    await setHours(hoursFrom(-2));
    await vi.waitFor(async () => expect(await ticketById(t, ticket.id)).toMatchObject({ status: 'open', userId: lia.id }), { timeout: 20_000, interval: 200 });
  });
});
