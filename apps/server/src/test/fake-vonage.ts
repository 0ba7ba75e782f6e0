/**
 * A fake Vonage on 127.0.0.1 for tests: the REST calls @vonage/server-sdk makes for SMS
 * (/sms/json), calls (/v1/calls) and the balance (/account/get-balance), answering as Vonage
 * does. It keeps every request; `smsAnswers` and `callAnswers` queue what the next ones get.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
export type Answer = { status: number; body: unknown };

/** Vonage's REST API as the SDK calls it; `answers` queues what the next SMS or call request gets. */
export class FakeVonage {
  readonly received: Received[] = [];
  readonly smsAnswers: Answer[] = [];
  readonly callAnswers: Answer[] = [];
  url = '';

  constructor(private readonly account: { apiKey: string; apiSecret: string }) {}

  readonly #server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      this.received.push({ method: req.method ?? '', path, headers: req.headers, body, at: Date.now() });
      const send = (answer: Answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      };
      if (path === '/account/get-balance') {
        const basic = `Basic ${Buffer.from(`${this.account.apiKey}:${this.account.apiSecret}`).toString('base64')}`;
        return send(
          req.headers.authorization === basic ? { status: 200, body: { value: 12.5, autoReload: false } } : { status: 401, body: { 'error-code': '401', 'error-code-label': 'authentication failed' } },
        );
      }
      if (path === '/sms/json') {
        const params = JSON.parse(body || '{}') as { to?: string };
        const next = this.smsAnswers.shift();
        if (next) return send(next);
        return send({
          status: 200,
          body: { 'message-count': '1', messages: [{ to: params.to, 'message-id': randomUUID(), status: '0', 'remaining-balance': '12.4', 'message-price': '0.05', network: '72405' }] },
        });
      }
      if (path === '/v1/calls') {
        const next = this.callAnswers.shift();
        if (next) return send(next);
        return send({ status: 201, body: { uuid: randomUUID(), status: 'started', direction: 'outbound', conversation_uuid: `CON-${randomUUID()}` } });
      }
      send({ status: 404, body: {} });
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  requests(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }
}
