/**
 * A fake Instagram Graph API on 127.0.0.1 for tests: `/me`, profiles, the Send API, the
 * account's conversations, and files at /cdn/… as Meta's CDN would serve them. It answers as
 * the Graph API does (its error bodies included), checks the bearer token, and keeps every request.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type GraphRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: string };
export type GraphPerson = { id: string; username: string; name: string };

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

export class FakeGraph {
  readonly requests: GraphRequest[] = [];
  /** People who have a conversation with the account. */
  readonly people: GraphPerson[] = [];
  /** IGSIDs whose 24-hour window has closed: the Send API refuses them. */
  readonly windowClosed = new Set<string>();
  url = '';

  constructor(private readonly account: { id: string; username: string; token: string }) {}

  readonly #server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname.startsWith('/cdn/')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
        return;
      }
      if (req.headers.authorization !== `Bearer ${this.account.token}`) {
        return send(400, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'A1' } });
      }
      const parts = url.pathname.split('/').filter(Boolean);
      if (req.method === 'GET' && parts[0] === 'me') return send(200, { user_id: this.account.id, username: this.account.username, id: this.account.id });
      if (req.method === 'POST' && parts[0] === this.account.id && parts[1] === 'messages') {
        const request = JSON.parse(body || '{}') as { recipient?: { id?: string }; sender_action?: string };
        if (request.sender_action) return send(200, { recipient_id: request.recipient?.id });
        if (this.windowClosed.has(request.recipient?.id ?? '')) {
          return send(400, { error: { message: '(#10) This message is sent outside of allowed window.', type: 'OAuthException', code: 10, error_subcode: 2018278, fbtrace_id: 'A2' } });
        }
        return send(200, { recipient_id: request.recipient?.id, message_id: `m_${randomUUID()}` });
      }
      if (req.method === 'GET' && parts[0] === this.account.id && parts[1] === 'conversations') {
        return send(200, {
          data: this.people.map((p) => ({
            id: `conv-${p.id}`,
            participants: {
              data: [
                { username: this.account.username, id: this.account.id },
                { username: p.username, id: p.id },
              ],
            },
          })),
        });
      }
      const person = this.people.find((p) => p.id === parts[0]);
      if (req.method === 'GET' && person) return send(200, { id: person.id, name: person.name, username: person.username, profile_pic: `https://scontent.cdninstagram.com/v/t51/${person.id}.jpg` });
      send(400, { error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100, error_subcode: 33 } });
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

  sends(): { recipient?: { id?: string }; message?: { text?: string; attachment?: { type: string; payload: { url: string } } } }[] {
    return this.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith('/messages'))
      .map((r) => JSON.parse(r.body) as ReturnType<FakeGraph['sends']>[number])
      .filter((b) => b.message);
  }
}
