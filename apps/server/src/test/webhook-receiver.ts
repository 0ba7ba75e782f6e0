/**
 * A webhook receiver on 127.0.0.1 for the tests: checks every signature (HMAC-SHA256 of
 * `${timestamp}.${body}` with the endpoint's secret), keeps what arrived, answers what the test
 * says (200, or an error status for a while), and can go away and come back on the same port.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Received = { id: string; event: string; deliveryHeader: string; eventHeader: string; timestamp: number; body: string; data: unknown; validSignature: boolean; answered: number };

export type Receiver = {
  url: string;
  port: number;
  /** Every request, in arrival order (those answered with errors too). */
  received: Received[];
  /** The delivery ids answered 2xx, in arrival order. */
  delivered: () => Received[];
  /** The status to answer from now on. */
  answer: (status: number) => void;
  /** How long to wait before answering (deliveries stay under way meanwhile). */
  delay: (ms: number) => void;
  /** Keys for the signature check, per endpoint secret (any one may match). */
  secrets: Set<string>;
  stop: () => Promise<void>;
  start: () => Promise<void>;
};

function verify(secrets: Set<string>, timestamp: string, body: string, given: string): boolean {
  for (const secret of secrets) {
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
    const actual = Buffer.from(given);
    if (expected.length === actual.length && timingSafeEqual(expected, actual)) return true;
  }
  return false;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  let status = 200;
  let delayMs = 0;
  const received: Received[] = [];
  const secrets = new Set<string>();
  const sockets = new Set<Socket>();
  let server: http.Server | undefined;
  let boundPort = port;

  const listen = async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(req.headers['x-zapdesk-timestamp'] ?? '');
        let parsed: { id?: string; event?: string; data?: unknown } = {};
        try {
          parsed = JSON.parse(body) as typeof parsed;
        } catch {
          // kept as it came
        }
        const answered = status;
        received.push({
          id: parsed.id ?? '',
          event: parsed.event ?? '',
          deliveryHeader: String(req.headers['x-zapdesk-delivery'] ?? ''),
          eventHeader: String(req.headers['x-zapdesk-event'] ?? ''),
          timestamp: Number(timestamp),
          body,
          data: parsed.data,
          validSignature: verify(secrets, timestamp, body, String(req.headers['x-zapdesk-signature'] ?? '')),
          answered,
        });
        const reply = () => {
          if (!res.destroyed) res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
        };
        if (delayMs > 0) setTimeout(reply, delayMs);
        else reply();
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(boundPort, '127.0.0.1', () => resolve());
    });
    boundPort = (server.address() as AddressInfo).port;
  };
  await listen();

  return {
    get url() {
      return `http://127.0.0.1:${boundPort}/hook`;
    },
    get port() {
      return boundPort;
    },
    received,
    delivered: () => received.filter((r) => r.answered >= 200 && r.answered < 300),
    answer: (next) => {
      status = next;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    secrets,
    stop: async () => {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.destroy();
      await closing;
      server = undefined;
    },
    start: async () => {
      // The port may take a moment to be free again after the close.
      for (let i = 0; ; i += 1) {
        try {
          await listen();
          return;
        } catch (error) {
          if (i > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
  };
}
