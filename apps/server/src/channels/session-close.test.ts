/**
 * A clean stop closes the database after the sessions: whatever they handed on must be written
 * by then, or the write fails on a closed database and the message is lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInboundHandler } from '../features/messages/inbound.service.js';
import { createConnectionStore } from '../features/whatsapps/connection-store.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { SessionManager } from './session-manager.js';
import type { SimulatorDriver } from './simulator/simulator.driver.js';

let t: TestApp;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Closing phone', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
  await t.sessions.stop(connectionId);
});
afterAll(async () => {
  await t.close();
});

async function storedBodies(): Promise<string[]> {
  const rows = await t.ctx.db.selectFrom('messages').select('body').where('whatsappId', '=', connectionId).orderBy('id').execute();
  return rows.map((r) => r.body);
}

describe('closing the sessions', () => {
  it('waits for the inbound messages being written before it resolves', async () => {
    const sessions = new SessionManager(t.ctx, createConnectionStore(t.ctx.db));
    const inbound = createInboundHandler(t.ctx, sessions);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const writing: string[] = [];
    sessions.setInboundHandler({
      ...inbound,
      messages: async (whatsappId, batch) => {
        writing.push(...batch.map((m) => m.body ?? ''));
        await gate;
        await inbound.messages(whatsappId, batch);
      },
    });
    await sessions.start(connectionId);
    const phone = sessions.requireDriver(connectionId) as SimulatorDriver;
    const delivered = phone.deliver({
      providerId: 'CLOSE-1',
      chat: { kind: 'person', number: '5511970000099' },
      sender: { number: '5511970000099' },
      fromMe: false,
      body: 'chegou na parada',
      timestamp: new Date(),
    });
    await expect.poll(() => writing).toEqual(['chegou na parada']);

    let closed = false;
    const closing = sessions.closeAll().then(() => (closed = true));
    // The session has stopped (its open mark is cleared), and the write is still held.
    await expect.poll(async () => (await t.ctx.db.selectFrom('whatsapps').select('sessionOpenSince').where('id', '=', connectionId).executeTakeFirstOrThrow()).sessionOpenSince).toBeNull();
    expect(closed).toBe(false);

    open();
    await closing;
    await delivered;
    expect(await storedBodies()).toEqual(['chegou na parada']);
  });
});
