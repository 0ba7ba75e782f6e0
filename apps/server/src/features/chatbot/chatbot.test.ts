/**
 * The Typebot chatbot against a fake Typebot on 127.0.0.1 that speaks the chat API (startChat,
 * continueChat) with a scripted flow, on the simulated phone: the flow end to end (text, image,
 * a choice answered by number, hand-over to a queue), the debounce, the flow's own retry prompt,
 * typebotOff, typebotRestart, expiry, the stop on accept, Typebot down, and a server restart.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const MENU = ['Vendas', 'Suporte', 'Financeiro'];

type Call = { path: string; body: { prefilledVariables?: Record<string, string>; message?: { type: string; text: string } } };

/** A scripted Typebot: greeting, an image, a menu; Vendas hands over to that queue; Suporte asks one question and ends. */
class FakeTypebot {
  readonly calls: Call[] = [];
  down = false;
  url = '';
  readonly #sessions = new Map<string, 'menu' | 'problem'>();
  #next = 0;
  readonly #server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/pixel.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Call['body']) : {};
      this.calls.push({ path: req.url ?? '', body });
      if (this.down) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal error"}');
      const answer = (data: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(req.url ?? '');
      if (start) {
        if (start[1] !== 'loja') return res.writeHead(404).end('{"message":"Typebot not found"}');
        this.#next += 1;
        const sessionId = `session-${this.#next}`;
        this.#sessions.set(sessionId, 'menu');
        const name = body.prefilledVariables?.name ?? '';
        return answer({
          sessionId,
          messages: [
            { id: 'b1', type: 'text', content: { type: 'markdown', markdown: `Olá **${name}**! Sou o *assistente* da loja.` } },
            { id: 'b2', type: 'image', content: { url: `${this.url}/pixel.png` } },
            { id: 'b3', type: 'text', content: { type: 'markdown', markdown: 'Escolha uma opção:' } },
          ],
          clientSideActions: [{ type: 'wait', wait: { secondsToWaitFor: 1 }, lastBubbleBlockId: 'b2' }],
          input: this.#menu(),
        });
      }
      const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.url ?? '');
      const state = next?.[1] ? this.#sessions.get(next[1]) : undefined;
      if (!next?.[1] || !state) return res.writeHead(404).end('{"message":"Session not found"}');
      const text = body.message?.text ?? '';
      if (state === 'menu') {
        if (text === 'Vendas') return answer({ messages: [this.#text('Um vendedor vai te atender.'), this.#text('#queue:Vendas')] });
        if (text === 'Suporte') {
          this.#sessions.set(next[1], 'problem');
          return answer({ messages: [this.#text('Qual é o problema?')], input: { id: 'i2', type: 'text input' } });
        }
        return answer({ messages: [this.#text('Opção inválida. Responda com o número de uma opção.')], input: this.#menu() });
      }
      return answer({ messages: [this.#text(`Anotado: ${text.replace(/\n/g, ' / ')}. Obrigado!`)] });
    });
  });

  #menu() {
    return { id: 'menu', type: 'choice input', items: MENU.map((content, i) => ({ id: `c${i}`, content })) };
  }

  #text(markdown: string) {
    return { id: `t${Math.random()}`, type: 'text', content: { type: 'markdown', markdown } };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  callsFor(predicate: (c: Call) => boolean): Call[] {
    return this.calls.filter(predicate);
  }
}

let t: TestApp;
let bot: FakeTypebot;
let phone: number;
let vendas: number;
let n = 0;

const customer = () => `5511944${String((n += 1)).padStart(6, '0')}`;

async function setting(key: string, value: string): Promise<void> {
  const res = await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
  expect(res.statusCode, `${key}=${value}`).toBe(200);
}

async function write(from: string, body: string): Promise<void> {
  const res = await t.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: t.adminToken, payload: { from, name: 'Maria Bot', body } });
  expect(res.statusCode).toBe(200);
}

async function outboxTo(number: string): Promise<TSimulatorOutboxItem[]> {
  const all = (await t.request({ method: 'GET', url: `/api/simulator/${phone}/outbox`, token: t.adminToken })).json<TSimulatorOutboxItem[]>();
  return all.filter((m) => m.to === number);
}

async function ticketOf(number: string): Promise<TTicket> {
  return waitFor(
    async () =>
      (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&searchParam=${number}`, token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets.find((x) => x.contact.number === number),
    (x): x is TTicket => x !== undefined,
  ) as Promise<TTicket>;
}

const sent = (items: TSimulatorOutboxItem[]) => items.map((m) => (m.kind === 'text' ? m.body : `[${m.kind} ${m.mimetype ?? ''}]`));

beforeAll(async () => {
  bot = await new FakeTypebot().start();
  t = await createTestApp({ SIMULATOR: 'on', ALLOW_PRIVATE_MEDIA_URLS: 'on', TYPEBOT_RETRY_SECONDS: '1' });
  vendas = (await t.createQueue({ name: 'Vendas', greetingMessage: 'Vendas aqui.' })).id;
  const suporte = (await t.createQueue({ name: 'Suporte', greetingMessage: 'Suporte aqui.' })).id;
  const created = await t.request({
    method: 'POST',
    url: '/api/whatsapp',
    token: t.adminToken,
    payload: { name: 'Bot phone', channel: 'simulator', isDefault: true, greetingMessage: 'Bem-vindo! Escolha um setor:', queueIds: [vendas, suporte] },
  });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
  await setting('typebotUrl', bot.url);
  await setting('typebotName', 'loja');
  await setting('typebotDebounce', '0');
  await setting('typebot', 'enabled');
});
afterAll(async () => {
  await t.close();
  await bot.stop();
});

describe('the chatbot page', () => {
  it('lets the app frame the Typebot server of the settings, and no other', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const frameSrc = /frame-src ([^;]+)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(frameSrc).toBe(`'self' ${bot.url}`);
    const frame = await t.request({ method: 'GET', url: '/api/chatbot/frame', token: (await t.createUser()).token });
    expect(frame.json()).toEqual({ url: bot.url, enabled: true });
  });
});

describe('the chatbot on a waiting ticket', () => {
  it('runs the flow: greeting with bold, an image after its pause, the menu numbered; "1" picks Vendas and the ticket waits in that queue', async () => {
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    const first = await outboxTo(from);
    expect(sent(first)).toEqual(['Olá *Maria Bot*! Sou o _assistente_ da loja.', '[media image/png]', 'Escolha uma opção:', '*1.* Vendas\n*2.* Suporte\n*3.* Financeiro']);
    // The pause the flow asked for after the image.
    const image = first.find((m) => m.kind === 'media');
    const after = first[2];
    expect(Date.parse(after?.sentAt ?? '') - Date.parse(image?.sentAt ?? '')).toBeGreaterThanOrEqual(900);
    // No queue menu while the bot answers, and the prefilled variables went to Typebot.
    expect(sent(first).join('\n')).not.toContain('Bem-vindo! Escolha um setor');
    const start = bot.callsFor((c) => c.path.endsWith('/startChat')).at(-1);
    const ticket = await ticketOf(from);
    expect(start?.body.prefilledVariables).toEqual({ name: 'Maria Bot', number: from, ticketId: String(ticket.id) });
    expect(ticket).toMatchObject({ status: 'pending', queueId: null, chatbot: true });

    await write(from, '1');
    const handedOver = await waitFor(
      () => ticketOf(from),
      (x) => x.queueId === vendas,
    );
    expect(handedOver.chatbot).toBe(false);
    expect(bot.calls.at(-1)?.body.message).toEqual({ type: 'text', text: 'Vendas' });
    const after1 = sent(await outboxTo(from));
    expect(after1.at(-1)).toBe('Um vendedor vai te atender.');
    expect(after1.join('\n')).not.toContain('#queue');
    // The bot's messages are the bot's in the chat.
    const chat = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: { body: string; fromBot: boolean; fromMe: boolean }[] }>().messages;
    expect(chat.filter((m) => m.fromMe).every((m) => m.fromBot)).toBe(true);
    expect(chat.find((m) => m.body === 'Um vendedor vai te atender.')?.fromBot).toBe(true);
    expect(chat.find((m) => m.body === '1')?.fromBot).toBe(false);
    // The flow is over: the next message is the agents' alone.
    const before = bot.calls.length;
    await write(from, 'Alguém aí?');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(bot.calls.length).toBe(before);
  });

  it('sends a burst as one message, answers an unusable reply with the flow’s own prompt, and a flow that ends gives the queue menu', async () => {
    await setting('typebotDebounce', '2');
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    await write(from, '9');
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body.startsWith('Opção inválida')),
    );
    await write(from, 'suporte');
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body === 'Qual é o problema?'),
    );
    await write(from, 'Minha internet');
    await write(from, 'caiu desde ontem');
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body.startsWith('Anotado:')),
    );
    expect(bot.calls.filter((c) => c.body.message?.text === 'Minha internet\ncaiu desde ontem')).toHaveLength(1);
    // The flow ended without naming a queue: the connection's menu follows.
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body.startsWith('Bem-vindo! Escolha um setor:')),
    );
    await setting('typebotDebounce', '0');
  });

  it('typebotOff stops the bot on that ticket (the queue menu answers); typebotRestart starts the flow again', async () => {
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    await write(from, '#sair');
    await waitFor(
      () => Promise.resolve(bot.callsFor((c) => c.body.prefilledVariables?.number === from).length),
      (count) => count === 2,
    );
    const calls = bot.calls.length;
    await write(from, '#humano');
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body.startsWith('Bem-vindo! Escolha um setor:')),
    );
    await write(from, '2');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(bot.calls.length).toBe(calls);
  });

  it('stops when someone types on the phone itself in that chat', async () => {
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    const fromPhone = await t.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: t.adminToken, payload: { from, body: 'Oi Maria, aqui é o dono da loja.', fromMe: true } });
    expect(fromPhone.statusCode).toBe(200);
    const calls = bot.calls.length;
    await write(from, '1');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(bot.calls.length).toBe(calls);
  });

  it('starts a new session when the last one is older than typebotTime', async () => {
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    const ticket = await ticketOf(from);
    const before = await t.ctx.db.selectFrom('chatbotSessions').select('sessionId').where('ticketId', '=', ticket.id).executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('chatbotSessions')
      .set({ lastActivityAt: new Date(Date.now() - 31 * 60_000).toISOString() })
      .where('ticketId', '=', ticket.id)
      .execute();
    await write(from, '1');
    await waitFor(
      () => Promise.resolve(bot.callsFor((c) => c.body.prefilledVariables?.number === from).length),
      (count) => count === 2,
    );
    // The expired session was not continued: the message started a new one.
    expect(bot.calls.some((c) => c.path === `/api/v1/sessions/${before.sessionId ?? ''}/continueChat`)).toBe(false);
    const after = await waitFor(
      () => t.ctx.db.selectFrom('chatbotSessions').select('sessionId').where('ticketId', '=', ticket.id).executeTakeFirstOrThrow(),
      (row) => row.sessionId !== before.sessionId,
    );
    expect(after.sessionId).not.toBeNull();
  });

  it('stops the moment an agent accepts the ticket', async () => {
    await setting('typebotDebounce', '4');
    const from = customer();
    await write(from, 'oi');
    const ticket = await ticketOf(from);
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
    await new Promise((resolve) => setTimeout(resolve, 4600));
    expect(bot.calls.some((c) => c.body.prefilledVariables?.number === from)).toBe(false);
    expect(await outboxTo(from)).toEqual([]);
    await setting('typebotDebounce', '0');
  });

  it('with Typebot down, keeps the message, leaves the ticket waiting as without a bot, and shows admins the error', async () => {
    bot.down = true;
    // Typebot comes back for the next tests even when this one fails.
    onTestFinished(() => {
      bot.down = false;
    });
    const from = customer();
    await write(from, 'Olá, tem alguém?');
    const ticket = await ticketOf(from);
    const status = await waitFor(
      async () => (await t.request({ method: 'GET', url: '/api/chatbot/status', token: t.adminToken })).json<{ enabled: boolean; lastError: { ticketId: number; lastError: string } | null }>(),
      (s) => s.lastError?.ticketId === ticket.id,
    );
    expect(status.lastError?.lastError).toContain('500');
    // Three tries, then the bot stops there.
    await waitFor(
      () => Promise.resolve(bot.callsFor((c) => c.body.prefilledVariables?.number === from).length),
      (count) => count === 3,
      20_000,
    );
    const messages = (await t.request({ method: 'GET', url: `/api/messages/${ticket.id}`, token: t.adminToken })).json<{ messages: { body: string }[] }>().messages;
    expect(messages.map((m) => m.body)).toContain('Olá, tem alguém?');
    expect(await ticketOf(from)).toMatchObject({ status: 'pending', userId: null });
    // The ticket says so too, once the third failure is written (the bot has seen the call before).
    const onTicket = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/api/chatbot/tickets/${ticket.id}`, token: t.adminToken })).json<{ status: string; lastError: string }>(),
      (state) => state.status === 'off',
    );
    expect(onTicket.lastError).toContain('500');
    const { token } = await t.createUser();
    expect((await t.request({ method: 'GET', url: '/api/chatbot/status', token })).statusCode).toBe(403);
  });

  it('carries on with the same Typebot session after the server restarts, and sends the answers it had not sent', async () => {
    const from = customer();
    await write(from, 'oi');
    await waitFor(
      () => outboxTo(from),
      (items) => items.length >= 4,
    );
    const sessionPath = (id: string) => `/api/v1/sessions/${id}/continueChat`;
    const ticket = await ticketOf(from);
    // The bot's turn has ended (nothing of it left to send), so the old server writes nothing more to it.
    const session = await waitFor(
      () => t.ctx.db.selectFrom('chatbotSessions').select(['sessionId', 'pending']).where('ticketId', '=', ticket.id).executeTakeFirstOrThrow(),
      (row) => row.pending === '',
    );
    // As if the server had stopped with one of the bot's answers not sent yet.
    await t.ctx.db
      .updateTable('chatbotSessions')
      .set({ pending: JSON.stringify({ outputs: [{ kind: 'text', body: 'Ainda estou aqui.' }] }) })
      .where('ticketId', '=', ticket.id)
      .execute();
    t = await t.restart();
    await waitFor(
      () => outboxTo(from),
      (items) => items.some((m) => m.body === 'Ainda estou aqui.'),
    );
    await write(from, '2');
    await waitFor(
      () => Promise.resolve(bot.calls.filter((c) => c.path === sessionPath(session.sessionId ?? '')).length),
      (count) => count === 1,
    );
    expect(bot.calls.at(-1)?.body.message?.text).toBe('Suporte');
    expect(bot.callsFor((c) => c.body.prefilledVariables?.number === from)).toHaveLength(1);
  });
});
