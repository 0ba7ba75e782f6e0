import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO: 'on', DEMO_INTERVAL_SECONDS: '1' });
});
afterAll(async () => {
  await t.close();
});

it('links a simulated phone and lets customers write in, so the inbox is alive without a phone', async () => {
  const connections = (await t.request({ method: 'GET', url: '/api/whatsapp', token: t.adminToken })).json<TWhatsapp[]>();
  expect(connections).toHaveLength(1);
  expect(connections[0]).toMatchObject({ name: 'Demo phone', channel: 'simulator', status: 'CONNECTED', isDefault: true });
  expect(connections[0]?.queues.map((q) => q.name)).toEqual(['Suporte', 'Vendas']);

  const until = Date.now() + 8000;
  let tickets: TTicket[] = [];
  while (tickets.length === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    tickets = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true', token: t.adminToken })).json().tickets;
  }
  expect(tickets.length).toBeGreaterThan(0);
  expect(tickets[0]?.whatsappId).toBe(connections[0]?.id);
});
