/** The queue-menu step on its own: which queue a ticket takes and what answers the contact. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import type { ConnectionQueue } from './pipeline-settings.js';
import { routeToQueue } from './queue-menu.js';

let t: TestApp;
let whatsappId: number;
let contactId: number;
const sales: ConnectionQueue = { id: 0, name: 'Vendas', color: '#00aa00', greetingMessage: 'Vendas aqui, {{name}}!' };
const support: ConnectionQueue = { id: 0, name: 'Suporte', color: '#0000aa', greetingMessage: '' };

beforeAll(async () => {
  t = await createTestApp();
  sales.id = (await t.createQueue({ name: sales.name, greetingMessage: sales.greetingMessage })).id;
  support.id = (await t.createQueue({ name: support.name })).id;
  const created = await t.insertWhatsapp({ name: 'Loja' });
  whatsappId = created.id;
  await t.ctx.db.updateTable('whatsapps').set({ greetingMessage: 'Olá {{name}}, bem-vindo à {{connection}}.' }).where('id', '=', whatsappId).execute();
  contactId = (await t.createContact({ name: 'Bia' })).id;
});
afterAll(async () => {
  await t.close();
});

// Always open, no 'closed now' marks (the marks are tested with the hours, out-of-hours.test.ts).
const open = { ruleOf: () => ({ hours: null, message: '' }), closedNowSuffix: '' };
const route = (queues: ConnectionQueue[], body: string, isNewTicket: boolean) => routeToQueue(t.ctx.db, { ticketId: 7, whatsappId, contactId, queues }, body, isNewTicket, open);

describe('queue menu step', () => {
  it('greets a new ticket on a connection without queues, and says nothing later', async () => {
    expect(await route([], 'oi', true)).toEqual({ reply: 'Olá Bia, bem-vindo à Loja.' });
    expect(await route([], 'oi de novo', false)).toEqual({ reply: '' });
  });

  it("gives the only queue at once, with that queue's greeting", async () => {
    expect(await route([sales], 'oi', true)).toEqual({ queueId: sales.id, reply: 'Vendas aqui, Bia!' });
    // Later messages of the chat keep the queue without answering again.
    expect(await route([sales], 'mais uma', false)).toEqual({ queueId: sales.id, reply: '' });
  });

  it('offers a numbered menu with several queues, and a number picks one', async () => {
    expect(await route([sales, support], 'oi', true)).toEqual({ reply: 'Olá Bia, bem-vindo à Loja.\n\n*1* - Vendas\n*2* - Suporte' });
    expect(await route([sales, support], ' 1 ', false)).toEqual({ queueId: sales.id, reply: 'Vendas aqui, Bia!' });
    // A queue without its own greeting answers with nothing on a later pick.
    expect(await route([sales, support], '2', false)).toEqual({ queueId: support.id, reply: '' });
    // A number outside the menu, or words, bring the menu again.
    expect((await route([sales, support], '9', false)).reply).toContain('*2* - Suporte');
    expect((await route([sales, support], 'quero comprar', false)).queueId).toBeUndefined();
  });
});
