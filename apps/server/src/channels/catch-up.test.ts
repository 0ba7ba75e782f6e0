/**
 * After an unclean stop, a connection reads again what its phone holds of the recently active
 * chats: WhatsApp acknowledges a message to the sender before the product has stored it, so a
 * crash in between would otherwise lose it. A clean stop reads nothing again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import { createInboundHandler } from '../features/messages/inbound.service.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { createConnectionStore } from '../features/whatsapps/connection-store.js';
import { SessionManager } from './session-manager.js';
import type { SimulatorDriver } from './simulator/simulator.driver.js';

let t: TestApp;
let connectionId: number;
const number = '5511970000001';

function phone(sessions: SessionManager = t.sessions): SimulatorDriver {
  return sessions.requireDriver(connectionId) as SimulatorDriver;
}

async function storedBodies(): Promise<string[]> {
  const rows = await t.ctx.db.selectFrom('messages').select('body').where('whatsappId', '=', connectionId).orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => r.body);
}

async function marker(): Promise<string | null> {
  const row = await t.ctx.db.selectFrom('whatsapps').select('sessionOpenSince').where('id', '=', connectionId).executeTakeFirstOrThrow();
  return row.sessionOpenSince;
}

/** Messages that reached the phone while nothing was stored: in its history, never in the product. */
function missed(bodies: string[], sessions?: SessionManager): void {
  const base = Date.now();
  phone(sessions).seedHistory(
    bodies.map((body, i) => ({ providerId: `MISSED-${body}`, chat: { kind: 'person', number }, sender: { number }, fromMe: false, body, timestamp: new Date(base + (i + 1) * 1000) })),
  );
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Catch-up phone', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
  const sent = await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/inbound`, token: t.adminToken, payload: { from: number, name: 'Ana', body: 'primeira' } });
  expect(sent.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('catch-up after an unclean stop', () => {
  it('marks a running session open and a cleanly stopped one closed; a clean restart reads nothing again', async () => {
    expect(await marker()).not.toBeNull();
    missed(['perdida na parada limpa']);
    await t.sessions.stop(connectionId);
    expect(await marker()).toBeNull();
    await t.sessions.start(connectionId);
    expect(phone().connected).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await storedBodies()).toEqual(['primeira']);
  });

  it('reads again, once connected, what the phone holds after the newest stored message, stored once and in order', async () => {
    missed(['segunda', 'terceira']);
    // The process dies: its driver goes away without the session manager closing the session.
    await phone().stop();
    expect(await marker()).not.toBeNull();

    const restarted = new SessionManager(t.ctx, createConnectionStore(t.ctx.db));
    restarted.setInboundHandler(createInboundHandler(t.ctx, restarted));
    const saved: string[] = [];
    const off = t.ctx.events.subscribe('message.saved', ({ message }) => void saved.push(message.body));
    try {
      await restarted.start(connectionId);
      await expect.poll(storedBodies, { timeout: 5000 }).toEqual(['primeira', 'perdida na parada limpa', 'segunda', 'terceira']);
      // The chat's ticket shows them as unread, as if they had arrived live.
      const ticket = (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${number}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets[0];
      expect(ticket).toMatchObject({ lastMessage: 'terceira' });
      expect(saved).toEqual(['perdida na parada limpa', 'segunda', 'terceira']);

      // A second unclean stop reads again from the newest stored message: nothing twice.
      await phone(restarted).stop();
      const again = new SessionManager(t.ctx, createConnectionStore(t.ctx.db));
      again.setInboundHandler(createInboundHandler(t.ctx, again));
      await again.start(connectionId);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await storedBodies()).toEqual(['primeira', 'perdida na parada limpa', 'segunda', 'terceira']);
      await again.closeAll();
      expect(await marker()).toBeNull();
    } finally {
      off();
      await restarted.closeAll();
    }
  });
});
