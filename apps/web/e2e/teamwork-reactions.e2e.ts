/**
 * Reactions and edits made on the customer's phone show in the open chat as they happen, in
 * Portuguese: the customer reacts ❤️ to the agent's answer and corrects their own message; the
 * chat shows the reaction under the answer and the new text marked 'Editada', without a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTicketListSchema } from '@zapdesk/shared/messaging';
import { ZSimulatorOutboxItemSchema } from '@zapdesk/shared/simulator';
import { z } from 'zod';
import { launchBrowser, newContext, pageErrors, screenshot, openSignedIn } from './browser';
import { startServer, type RunningServer } from './server';
import { apiAs, editOnPhone, idOf, reactOnPhone, scanWhenReady, signIn } from './simulator';

let server: RunningServer;
let browser: Browser;
let adminToken = '';
let adminId = 0;
let connectionId = 0;

const CUSTOMER = { from: '5511944448888', name: 'Helena Reação' };
const api = (route: string, options: { method?: string; body?: unknown } = {}) => apiAs(server.baseUrl, () => adminToken)(route, options);

async function ticketIdOf(number: string): Promise<number> {
  let id = 0;
  await expect
    .poll(async () => {
      const list = ZTicketListSchema.parse(await (await api(`/tickets?showAll=true&searchParam=${number}`)).json());
      id = list.tickets.find((x) => x.contact.number === number)?.id ?? 0;
      return id;
    })
    .toBeGreaterThan(0);
  return id;
}

/** The provider id under which the phone received the agent's text. */
async function receivedOnPhone(body: string): Promise<string> {
  let id = '';
  await expect
    .poll(async () => {
      const items = z.array(ZSimulatorOutboxItemSchema).parse(await (await api(`/simulator/${connectionId}/outbox`)).json());
      id = items.find((o) => o.to === CUSTOMER.from && o.body === body)?.id ?? '';
      return id;
    })
    .not.toBe('');
  return id;
}

/** A page that was reloaded loses this mark. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { reactionsNoReload: true }));
}
const stillSamePage = (page: Page) => page.evaluate(() => 'reactionsNoReload' in window);

beforeAll(async () => {
  server = await startServer({ simulator: true });
  browser = await launchBrowser();
  const signedIn = await signIn(server.baseUrl);
  adminToken = signedIn.token;
  adminId = signedIn.user.id;
  connectionId = await idOf(await api('/whatsapp', { method: 'POST', body: { name: 'Loja Reações', channel: 'simulator' } }));
  expect(connectionId).toBeGreaterThan(0);
  await scanWhenReady(api, connectionId);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('reactions and edits from the phone', () => {
  it('shows the customer’s ❤️ under the agent’s answer and their corrected message as Editada, live', async () => {
    expect((await api(`/simulator/${connectionId}/inbound`, { method: 'POST', body: { ...CUSTOMER, id: 'REACT-E2E-1', body: 'Oi! Meu pedido 4512 ainda não chegou' } })).status).toBe(200);
    const ticketId = await ticketIdOf(CUSTOMER.from);
    expect((await api(`/tickets/${ticketId}`, { method: 'PUT', body: { status: 'open', userId: adminId } })).status).toBe(200);

    const context = await newContext(browser, server.baseUrl, { locale: 'pt-BR' });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page, `/tickets/${ticketId}`);
    const messages = page.getByTestId('messages-list').getByTestId('message');
    await messages.filter({ hasText: 'Meu pedido 4512' }).waitFor();
    await markPage(page);

    // The agent answers from the chat.
    const answerText = 'Seu pedido saiu para entrega hoje de manhã';
    await page.getByTestId('message-input').fill(answerText);
    await page.getByTestId('message-input').press('Enter');
    const answer = messages.filter({ hasText: answerText });
    await answer.waitFor();
    const answerId = await receivedOnPhone(answerText);

    // The customer reacts ❤️ to it: the reaction shows under the answer, saying who reacted.
    await reactOnPhone(api, connectionId, { id: answerId, from: CUSTOMER.from, emoji: '❤️' });
    const reactions = answer.getByTestId('message-reactions');
    await expect.poll(() => reactions.textContent()).toBe('❤️');
    await expect(reactions.getAttribute('aria-label')).resolves.toBe('Reações: Helena Reação reagiu com ❤️');

    // They correct their own message: the new text, marked Editada.
    await editOnPhone(api, connectionId, { id: 'REACT-E2E-1', body: 'Oi! Meu pedido 4521 ainda não chegou' });
    const corrected = messages.filter({ hasText: 'Meu pedido 4521' });
    await expect.poll(() => corrected.getByTestId('message-edited').textContent()).toBe('Editada');
    await expect(messages.filter({ hasText: 'Meu pedido 4512' }).count()).resolves.toBe(0);
    await expect(stillSamePage(page)).resolves.toBe(true);
    // A reaction is no message: the chat holds the customer's message and the answer only.
    await expect(messages.count()).resolves.toBe(2);
    // Pointing at the reaction says who reacted.
    await reactions.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Helena Reação reagiu com ❤️');
    await screenshot(page, 'reactions-chat-desktop');

    // On a phone: what is there shows at once, and a change of reaction arrives live.
    const phone = await newContext(browser, server.baseUrl, { mobile: true, locale: 'pt-BR' });
    const phonePage = await phone.newPage();
    await openSignedIn(phonePage, `/tickets/${ticketId}`);
    const phoneMessages = phonePage.getByTestId('messages-list').getByTestId('message');
    const phoneAnswer = phoneMessages.filter({ hasText: answerText });
    await expect.poll(() => phoneAnswer.getByTestId('message-reactions').textContent()).toBe('❤️');
    await expect(phoneMessages.filter({ hasText: 'Meu pedido 4521' }).getByTestId('message-edited').textContent()).resolves.toBe('Editada');
    await markPage(phonePage);
    await reactOnPhone(api, connectionId, { id: answerId, from: CUSTOMER.from, emoji: '🙏' });
    await reactOnPhone(api, connectionId, { id: 'REACT-E2E-1', from: CUSTOMER.from, emoji: '👍', fromMe: true });
    await expect.poll(() => phoneAnswer.getByTestId('message-reactions').textContent()).toBe('🙏');
    const ownReaction = phoneMessages.filter({ hasText: 'Meu pedido 4521' }).getByTestId('message-reactions');
    await expect.poll(() => ownReaction.getAttribute('aria-label')).toBe('Reações: Você reagiu com 👍');
    await expect(stillSamePage(phonePage)).resolves.toBe(true);
    await screenshot(phonePage, 'reactions-chat-mobile');

    // Taken away on the phone: gone from both screens.
    await reactOnPhone(api, connectionId, { id: answerId, from: CUSTOMER.from, emoji: '' });
    await expect.poll(() => answer.getByTestId('message-reactions').count()).toBe(0);
    await expect.poll(() => phoneAnswer.getByTestId('message-reactions').count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await phone.close();
    await context.close();
  });
});
