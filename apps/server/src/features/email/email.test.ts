/**
 * E-mail against real SMTP servers on 127.0.0.1 (smtp-server), each mail read back with
 * mailparser: closing notices, protocol numbers, the /zdgSendEmail* calls with attachments,
 * STARTTLS with a self-signed certificate, retries, failures and the admins' list.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TEmail, TEmailList } from '@zapdesk/shared/email';
import type { TTicket } from '@zapdesk/shared/messaging';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const CERT = fs.readFileSync(path.join(FIXTURES, 'smtp-test-cert.pem'));
const KEY = fs.readFileSync(path.join(FIXTURES, 'smtp-test-key.pem'));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

type Received = { mail: ParsedMail; to: string[]; secure: boolean };

/** An SMTP server on loopback that keeps what it receives; `refuse` answers a RCPT with an error while it returns one. */
class FakeSmtp {
  readonly received: Received[] = [];
  refuse: (() => { code: number; message: string } | undefined) | undefined;
  port = 0;
  readonly #server: SMTPServer;

  constructor(options: Partial<SMTPServerOptions> = {}) {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: options.key ? [] : ['STARTTLS'],
      ...options,
      onRcptTo: (_address, _session, callback) => {
        const refusal = this.refuse?.();
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address), secure: session.secure });
            callback();
          })
          .catch(callback);
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async next(match: (r: Received) => boolean): Promise<Received> {
    return waitFor(
      async () => this.received.find(match),
      (r): r is Received => r !== undefined,
    ) as Promise<Received>;
  }
}

let t: TestApp;
let smtp: FakeSmtp;
let tls: FakeSmtp;
let phone: number;
let apiToken: string;

async function setting(key: string, value: string): Promise<void> {
  const res = await t.request({ method: 'PUT', url: `/api/settings/${key}`, token: t.adminToken, payload: { value } });
  expect(res.statusCode, `${key}=${value}`).toBe(200);
}

async function useServer(server: FakeSmtp, security: 'none' | 'starttls'): Promise<void> {
  await setting('emailHost', '127.0.0.1');
  await setting('emailPort', String(server.port));
  await setting('emailSecurity', security);
}

async function emails(): Promise<TEmail[]> {
  return (await t.request({ method: 'GET', url: '/api/emails', token: t.adminToken })).json<TEmailList>().emails;
}

async function email(id: number, done: (e: TEmail) => boolean): Promise<TEmail> {
  return waitFor(
    async () => (await emails()).find((e) => e.id === id),
    (e): e is TEmail => e !== undefined && done(e),
    20_000,
  ) as Promise<TEmail>;
}

/** An open ticket of a new contact, accepted by the admin. */
async function openTicket(body: string): Promise<TTicket> {
  const ticket = await t.inboundTicket(phone, body);
  await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'open' } });
  return ticket;
}

beforeAll(async () => {
  smtp = await new FakeSmtp().start();
  tls = await new FakeSmtp({ key: KEY, cert: CERT }).start();
  t = await createTestApp({ SIMULATOR: 'on', SMTP_CA_FILE: path.join(FIXTURES, 'smtp-test-cert.pem'), MAIL_RETRY_SECONDS: '1' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Mail phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>();
  apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
  await setting('emailFrom', 'zapdesk@loja.example');
  await setting('emailTo', 'equipe@loja.example');
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
  await tls.stop();
});

describe('closing notices', () => {
  it('stores nothing while no SMTP server is set', async () => {
    const before = (await emails()).length;
    const ticket = await openTicket('Oi, sem e-mail');
    await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect((await emails()).length).toBe(before);
  });

  it('mails emailTo and the contact on resolve, with ticket number, contact number, name and time, in the e-mail language', async () => {
    await useServer(smtp, 'none');
    const ticket = await openTicket('Quero falar com alguém');
    await t.request({ method: 'PUT', url: `/api/contacts/${ticket.contactId}`, token: t.adminToken, payload: { name: 'Cliente Email', number: ticket.contact.number, email: 'cliente@example.com' } });
    const res = await t.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: t.adminToken, payload: { status: 'closed' } });
    expect(res.statusCode).toBe(200);
    const got = await smtp.next((r) => r.mail.subject === `Atendimento #${ticket.id} encerrado`);
    expect(got.to.sort()).toEqual(['cliente@example.com', 'equipe@loja.example']);
    expect(got.mail.from?.text).toContain('zapdesk@loja.example');
    expect(got.mail.text).toContain(`#${ticket.id}`);
    expect(got.mail.text).toContain('Cliente Email');
    expect(got.mail.text).toContain(ticket.contact.number);
    expect(got.mail.text).toMatch(/\d{2}\/\d{2}\/\d{4}/);

    await setting('emailLanguage', 'en');
    const other = await openTicket('Hello');
    await t.request({ method: 'POST', url: '/api/ticketsClosed', token: t.adminToken });
    const english = await smtp.next((r) => r.mail.subject === `Ticket #${other.id} closed`);
    expect(english.to).toEqual(['equipe@loja.example']);
    await setting('emailLanguage', 'pt');
  });

  it('Protocolo: the notice carries the protocol number, and /zdgProtocolo mails the number the server gave, never the one sent', async () => {
    const ticket = await openTicket('Preciso de protocolo');
    const closed = await t.request({ method: 'POST', url: `/api/tickets/${ticket.id}/protocol`, token: t.adminToken });
    expect(closed.statusCode).toBe(200);
    const { protocol } = closed.json<{ protocol: string }>();
    const notice = await smtp.next((r) => r.mail.subject === `Atendimento #${ticket.id} encerrado`);
    expect(notice.mail.text).toContain(protocol);

    const res = await t.request({ method: 'POST', url: '/api/zdgProtocolo', payload: { usuario: 'Ana', protocolo: '999-FORJADO', ticket: ticket.id, token: apiToken } });
    expect(res.statusCode).toBe(202);
    const mail = await smtp.next((r) => r.mail.subject?.startsWith(`Protocolo ${protocol}`) ?? false);
    expect(mail.to).toEqual(['equipe@loja.example']);
    expect(mail.mail.text).toContain(protocol);
    expect(mail.mail.text).not.toContain('FORJADO');

    const without = await openTicket('Sem protocolo');
    const refused = await t.request({ method: 'POST', url: '/api/zdgProtocolo', payload: { ticket: without.id, token: apiToken } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PROTOCOL' });
  });
});

describe('the /zdgSendEmail* calls', () => {
  it('send to emailTo or zdgTo, with a text or base64 attachment read back whole', async () => {
    const plain = await t.request({ method: 'POST', url: '/api/zdgSendEmail', payload: { zdgSubject: 'Relatório', zdgText: 'Linha 1\nLinha 2', token: apiToken } });
    expect(plain.statusCode).toBe(202);
    expect(plain.json()).toMatchObject({ status: 'queued' });
    const a = await smtp.next((r) => r.mail.subject === 'Relatório');
    expect(a.to).toEqual(['equipe@loja.example']);
    expect(a.mail.text?.trim()).toBe('Linha 1\nLinha 2');

    await t.request({
      method: 'POST',
      url: '/api/zdgSendEmailUser',
      headers: { authorization: `Bearer ${apiToken}` },
      payload: { zdgSubject: 'Para você', zdgText: 'Oi', zdgTo: 'a@example.com, b@example.com' },
    });
    expect((await smtp.next((r) => r.mail.subject === 'Para você')).to.sort()).toEqual(['a@example.com', 'b@example.com']);

    const csv = '\uFEFFData;Hora;De;Mensagem\r\n01/02/2026;10:00;Ana;"Olá; tudo bem?"\r\n';
    await t.request({
      method: 'POST',
      url: '/api/zdgSendEmailAttach',
      token: t.adminToken,
      payload: { zdgSubject: 'Conversa', zdgText: 'Segue a conversa.', zdgFileName: 'zdg.csv', zdgContent: csv },
    });
    const withCsv = await smtp.next((r) => r.mail.subject === 'Conversa');
    expect(withCsv.mail.attachments.map((x) => x.filename)).toEqual(['zdg.csv']);
    expect(withCsv.mail.attachments[0]?.content.toString('utf8')).toBe(csv);

    await t.request({
      method: 'POST',
      url: '/api/zdgSendEmailAttachUser',
      payload: { zdgSubject: 'Imagem', zdgText: 'Em anexo.', zdgFileName: 'pixel.png', zdgContent: `base64:${PNG.toString('base64')}`, zdgTo: 'c@example.com', token: apiToken },
    });
    const withPng = await smtp.next((r) => r.mail.subject === 'Imagem');
    expect(withPng.to).toEqual(['c@example.com']);
    expect(withPng.mail.attachments[0]?.contentType).toBe('image/png');
    expect(Buffer.compare(withPng.mail.attachments[0]?.content ?? Buffer.alloc(0), PNG)).toBe(0);
  });

  it('answers 401 without credentials or with a wrong token, and 400 to a bad address, a forged header or a path in the file name', async () => {
    for (const url of ['/api/zdgSendEmail', '/api/zdgSendEmailUser', '/api/zdgSendEmailAttach', '/api/zdgSendEmailAttachUser', '/api/zdgProtocolo']) {
      expect((await t.request({ method: 'POST', url, payload: { zdgSubject: 'x', zdgText: 'y' } })).statusCode, url).toBe(401);
      expect((await t.request({ method: 'POST', url, payload: { zdgSubject: 'x', zdgText: 'y', token: 'wrong' } })).statusCode, url).toBe(401);
    }
    const before = (await emails()).length;
    const bad: [string, Record<string, unknown>][] = [
      ['/api/zdgSendEmailUser', { zdgSubject: 'x', zdgText: 'y', zdgTo: 'not-an-address' }],
      ['/api/zdgSendEmailUser', { zdgSubject: 'x', zdgText: 'y', zdgTo: 'a@example.com\r\nBcc: evil@example.com' }],
      ['/api/zdgSendEmail', { zdgSubject: 'Oi\r\nBcc: evil@example.com', zdgText: 'y' }],
      ['/api/zdgSendEmailAttach', { zdgSubject: 'x', zdgText: 'y', zdgFileName: '../../etc/passwd', zdgContent: 'a' }],
    ];
    for (const [url, payload] of bad) {
      const res = await t.request({ method: 'POST', url, payload: { ...payload, token: apiToken } });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    expect((await emails()).length).toBe(before);
  });
});

describe('delivery', () => {
  it('goes through STARTTLS to a server with a self-signed certificate trusted through SMTP_CA_FILE', async () => {
    await useServer(tls, 'starttls');
    await t.request({ method: 'POST', url: '/api/zdgSendEmail', payload: { zdgSubject: 'Por TLS', zdgText: 'cifrado', token: apiToken } });
    const got = await tls.next((r) => r.mail.subject === 'Por TLS');
    expect(got.secure).toBe(true);
    await useServer(smtp, 'none');
  });

  it('tries again with back-off while the server turns it away for now, and lists the error meanwhile', async () => {
    let refusals = 2;
    smtp.refuse = () => (refusals-- > 0 ? { code: 451, message: 'Try again later' } : undefined);
    const { id } = (await t.request({ method: 'POST', url: '/api/zdgSendEmail', payload: { zdgSubject: 'Insistente', zdgText: 'oi', token: apiToken } })).json<{ id: number }>();
    const waiting = await email(id, (e) => e.attempts >= 1 && e.status === 'queued');
    expect(waiting.lastError).toContain('451');
    expect(waiting.nextAttemptAt).not.toBeNull();
    await smtp.next((r) => r.mail.subject === 'Insistente');
    expect(await email(id, (e) => e.status === 'sent')).toMatchObject({ attempts: 3, lastError: null });
    smtp.refuse = undefined;
  });

  it('fails at once on a final refusal; an admin sends it again', async () => {
    smtp.refuse = () => ({ code: 550, message: 'No such user here' });
    const { id } = (await t.request({ method: 'POST', url: '/api/zdgSendEmailUser', payload: { zdgSubject: 'Sem caixa', zdgText: 'oi', zdgTo: 'ninguem@example.com', token: apiToken } })).json<{
      id: number;
    }>();
    const failed = await email(id, (e) => e.status === 'failed');
    expect(failed).toMatchObject({ attempts: 1, to: 'ninguem@example.com' });
    expect(failed.lastError).toContain('550');
    smtp.refuse = undefined;
    const again = await t.request({ method: 'POST', url: `/api/emails/${id}/retry`, token: t.adminToken });
    expect(again.statusCode).toBe(200);
    await smtp.next((r) => r.mail.subject === 'Sem caixa');
    expect((await t.request({ method: 'POST', url: `/api/emails/${id}/retry`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_EMAIL_NOT_FAILED' });
  });

  it('the settings test mail goes at once and says why it failed', async () => {
    const ok = await t.request({ method: 'POST', url: '/api/emails/test', token: t.adminToken, payload: { to: 'teste@example.com' } });
    expect(ok.statusCode).toBe(200);
    await smtp.next((r) => r.to.includes('teste@example.com') && r.mail.subject === 'ZapDesk: e-mail de teste');
    await setting('emailPort', '9');
    const down = await t.request({ method: 'POST', url: '/api/emails/test', token: t.adminToken, payload: {} });
    expect(down.statusCode).toBe(400);
    expect(down.json()).toMatchObject({ error: 'ERR_EMAIL_FAILED' });
    await setting('emailPort', String(smtp.port));
  });

  it('the list of mails and the test are for admins only', async () => {
    const { token } = await t.createUser();
    expect((await t.request({ method: 'GET', url: '/api/emails', token })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/emails/test', token, payload: {} })).statusCode).toBe(403);
  });
});
