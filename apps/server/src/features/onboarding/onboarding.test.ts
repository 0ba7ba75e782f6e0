import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
});
afterAll(async () => {
  await t.close();
});

const firstRun = async (token: string) => {
  const res = await t.request({ method: 'GET', url: '/api/onboarding', token });
  expect(res.statusCode).toBe(200);
  return res.json<{ steps: Record<string, boolean>; complete: boolean; dismissed: boolean }>();
};

describe('first-run checklist', () => {
  it('ticks each step from what exists: a linked phone, a queue, an agent, a message an agent wrote (a greeting does not count)', async () => {
    expect(await firstRun(t.adminToken)).toEqual({ steps: { connection: false, queue: false, agent: false, message: false }, complete: false, dismissed: false });

    const queue = await t.createQueue({ name: 'Atendimento', greetingMessage: 'Olá! Já vamos te atender.' });
    expect((await firstRun(t.adminToken)).steps).toEqual({ connection: false, queue: true, agent: false, message: false });

    // A second admin is no agent.
    await t.createUser({ profile: 'admin' });
    expect((await firstRun(t.adminToken)).steps.agent).toBe(false);
    const agent = await t.createUser({ name: 'Ana', queueIds: [queue.id] });
    expect((await firstRun(t.adminToken)).steps.agent).toBe(true);

    // A connection waiting for its QR code is not connected yet.
    const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Loja', channel: 'simulator', queueIds: [queue.id] } });
    expect(created.statusCode).toBe(201);
    const connectionId = created.json<{ id: number }>().id;
    expect((await firstRun(t.adminToken)).steps.connection).toBe(false);
    expect((await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken })).statusCode).toBe(200);
    expect((await firstRun(t.adminToken)).steps.connection).toBe(true);

    // The queue's greeting goes out by itself: not yet a message by an agent.
    const ticket = await t.inboundTicket(connectionId, 'Oi, tudo bem?');
    await waitFor(
      () => t.ctx.db.selectFrom('messages').select('id').where('ticketId', '=', ticket.id).where('fromMe', '=', 1).execute(),
      (rows) => rows.length === 1,
    );
    expect((await firstRun(t.adminToken)).steps.message).toBe(false);

    expect((await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: agent.token, payload: { status: 'open' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/messages/${ticket.id}`, token: agent.token, payload: { body: 'Olá! Sou a Ana.' } })).statusCode).toBe(201);
    expect(await firstRun(t.adminToken)).toEqual({ steps: { connection: true, queue: true, agent: true, message: true }, complete: true, dismissed: false });
  });

  it('is closed per admin, and stays closed', async () => {
    const other = await t.createUser({ profile: 'admin' });
    const res = await t.request({ method: 'POST', url: '/api/onboarding/dismiss', token: other.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ dismissed: true });
    expect((await firstRun(other.token)).dismissed).toBe(true);
    // Closing twice keeps the first time; another admin still has it.
    expect((await t.request({ method: 'POST', url: '/api/onboarding/dismiss', token: other.token })).json()).toMatchObject({ dismissed: true });
    expect((await firstRun(t.adminToken)).dismissed).toBe(false);
  });

  it('is for admins only', async () => {
    const { token } = await t.createUser();
    for (const call of [
      { method: 'GET' as const, url: '/api/onboarding' },
      { method: 'POST' as const, url: '/api/onboarding/dismiss' },
    ]) {
      const res = await t.request({ ...call, token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
      expect((await t.request(call)).statusCode).toBe(401);
    }
  });
});

describe('public settings', () => {
  it('tells anyone whether sign-up is open, and follows the setting', async () => {
    const read = async () => {
      const res = await t.request({ method: 'GET', url: '/api/public-settings' });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    expect(await read()).toEqual({ signupEnabled: false });
    expect((await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'enabled' } })).statusCode).toBe(200);
    expect(await read()).toEqual({ signupEnabled: true });
    expect((await t.request({ method: 'PUT', url: '/api/settings/userCreation', token: t.adminToken, payload: { value: 'disabled' } })).statusCode).toBe(200);
    expect(await read()).toEqual({ signupEnabled: false });
  });
});
