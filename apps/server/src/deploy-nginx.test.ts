/**
 * The shipped nginx configuration (deploy/nginx/zapdesk.conf) with real nginx in front of three
 * nodes of the cluster mode (PostgreSQL and Redis): TLS, the forwarded scheme, the balancer, the
 * WebSocket upgrade, the upload size, the media cache, the redirect and the hidden /metrics.
 * Which node answered is read from the nodes' own HTTP servers (a listener counting the requests
 * each one receives), so nothing is added to the product for the test. Runs in the PostgreSQL
 * project of the suite; without nginx, openssl or Redis it says so and skips, except on CI.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TMessage } from '@zapdesk/shared/messaging';
import { mediaUrlExpiring } from './features/messages/media-store.js';
import { startClusterNodes, type ClusterNodes } from './test/cluster-nodes.js';
import type { TestApp } from './test/harness.js';
import { freePort, nginxDir, nginxTools, renderConfig, selfSignedCertificate, startNginx, type RunningNginx } from './test/nginx.js';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
const MB = 1024 * 1024;

describe.runIf(process.env.TEST_DB === 'postgres')('three nodes behind real nginx with deploy/nginx/zapdesk.conf', () => {
  let cluster: ClusterNodes | undefined;
  let proxy: RunningNginx | undefined;
  let dir: string | undefined;
  let ca: Buffer = Buffer.alloc(0);
  let base = '';
  let httpPort = 0;
  const sockets: Socket[] = [];
  /** The requests each node's HTTP server received, by path and query. */
  const seen: string[][] = [[], [], []];

  beforeAll(async () => {
    const tools = nginxTools();
    if (!tools) return;
    httpPort = await freePort();
    const httpsPort = await freePort();
    base = `https://127.0.0.1:${httpsPort}`;
    // Small upload limits, so that "over nginx's 1 MB default" and "over the limit" are quick to send.
    cluster = await startClusterNodes(3, { TRUST_PROXY: 'loopback', PUBLIC_URL: base, UPLOAD_MAX_FILE_MB: '2', UPLOAD_MAX_REQUEST_MB: '3' });
    if (!cluster) return;
    cluster.nodes.forEach((node, i) => node.app.server.on('request', (req: http.IncomingMessage) => seen[i]?.push(req.url ?? '')));
    dir = nginxDir();
    const certificate = selfSignedCertificate(tools.openssl, dir);
    ca = certificate.pem;
    const upstreams = cluster.urls.map((url) => new URL(url).host);
    proxy = await startNginx(tools.nginx, dir, renderConfig({ upstreams, httpPort, httpsPort, cert: certificate.cert, key: certificate.key, dir, maxBodyMb: 3 }), httpsPort);
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await proxy?.stop();
    await cluster?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One request through nginx over HTTPS, trusting only the test's own certificate. */
  function call(method: string, path: string, options: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}): Promise<Answer> {
    const body = options.json === undefined ? options.body : Buffer.from(JSON.stringify(options.json));
    const headers: Record<string, string> = {
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(body ? { 'content-length': String(body.length) } : {}),
      ...options.headers,
    };
    return new Promise((resolve, reject) => {
      const req = https.request(`${base}${path}`, { method, headers, ca, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.once('error', reject);
      req.end(body);
    });
  }

  /** Which nodes received requests whose path starts with `prefix`, from `since` (counts per node). */
  const received = (prefix: string, since: number[] = [0, 0, 0]) => seen.map((urls, i) => urls.slice(since[i]).filter((url) => url.startsWith(prefix)).length);
  const mark = () => seen.map((urls) => urls.length);

  function multipart(name: string, type: string, data: Buffer): { body: Buffer; headers: Record<string, string> } {
    const boundary = 'zapdesknginxboundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  const node = (i: number): TestApp => {
    const found = cluster?.nodes[i];
    if (!found) throw new Error('nodes missing');
    return found;
  };

  it('signs in over HTTPS: the app sees the forwarded scheme (HSTS, a Secure cookie), and requests spread over the three nodes', async (context) => {
    if (!proxy) return context.skip();
    const login = await call('POST', '/api/auth/login', { json: { email: 'admin@test.local', password: 'admin-pass' } });
    expect(login.status).toBe(200);
    expect(login.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const cookie = (login.headers['set-cookie'] ?? []).find((c) => c.startsWith('jrt='));
    expect(cookie).toMatch(/; Secure/);
    // Tokens are never compressed (BREACH): the sign-in answer is not, though asked.
    const { token } = JSON.parse(login.body.toString()) as { token: string };
    const before = mark();
    for (let i = 0; i < 9; i += 1) expect((await call('GET', '/api/users/online', { token })).status).toBe(200);
    const perNode = received('/api/users/online', before);
    expect(perNode.reduce((a, b) => a + b, 0)).toBe(9);
    for (const count of perNode) expect(count).toBeGreaterThanOrEqual(2);
    // Text is compressed: the API's description, asked with gzip.
    const docs = await call('GET', '/api/docs/json', { headers: { 'accept-encoding': 'gzip' } });
    expect(docs.status).toBe(200);
    expect(docs.headers['content-encoding']).toBe('gzip');
    const signIn = await call('POST', '/api/auth/login', { json: { email: 'admin@test.local', password: 'admin-pass' }, headers: { 'accept-encoding': 'gzip' } });
    expect(signIn.headers['content-encoding']).toBeUndefined();
  });

  it('carries a live event over a WebSocket through nginx, caused by a request that nginx sent to another node', async (context) => {
    if (!proxy) return context.skip();
    const token = node(0).adminToken;
    const socket = connectSocket(base, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, ca: ca.toString() });
    sockets.push(socket);
    const heard: { event: string; payload: unknown }[] = [];
    socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    expect(socket.io.engine.transport.name).toBe('websocket');
    // The node that holds the socket: the one whose own socket.io server has it.
    const holders = cluster?.nodes.map((n) => n.io.sockets.sockets.has(socket.id ?? '')) ?? [];
    expect(holders.filter(Boolean)).toHaveLength(1);
    const before = mark();
    const created = await call('POST', '/api/quickAnswers', { token, json: { shortcut: 'nginx', message: 'Olá através do nginx' } });
    expect(created.status).toBe(201);
    const handledBy = received('/api/quickAnswers', before).findIndex((count) => count === 1);
    expect(handledBy).toBeGreaterThanOrEqual(0);
    expect(holders[handledBy]).toBe(false);
    await vi.waitFor(() => expect(heard).toContainEqual({ event: 'quickAnswer', payload: expect.objectContaining({ action: 'create' }) }), { timeout: 5_000 });
  });

  it("passes an upload over nginx's 1 MB default and within the product's limit, refuses one above it at the door, and caches a signed media address", async (context) => {
    if (!proxy) return context.skip();
    const a = node(0);
    const phone = (await a.request({ method: 'POST', url: '/api/whatsapp', token: a.adminToken, payload: { name: 'Linha nginx', channel: 'simulator' } })).json<{ id: number }>().id;
    expect((await a.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: a.adminToken })).statusCode).toBe(200);
    const ticket = await a.inboundTicket(phone, 'Pode mandar o arquivo?');
    expect((await a.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: a.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);

    const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 'x')]);
    const file = pdf(1.5 * MB);
    const sent = await call('POST', `/api/messages/${ticket.id}`, { token: a.adminToken, ...multipart('contrato.pdf', 'application/pdf', file) });
    expect(sent.status).toBe(201);
    const before = mark();
    const tooLarge = await call('POST', `/api/messages/${ticket.id}`, { token: a.adminToken, ...multipart('grande.pdf', 'application/pdf', pdf(3.5 * MB)) });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body.toString())).toMatchObject({ error: 'ERR_UPLOAD_TOO_LARGE' });
    expect(received('/api/messages', before)).toEqual([0, 0, 0]);

    const [message] = JSON.parse(sent.body.toString()) as TMessage[];
    const address = message?.mediaUrl ?? '';
    expect(address).toMatch(/^\/api\/media\/\d+\?expires=\d+&signature=/);
    const first = await call('GET', address);
    expect(first.status).toBe(200);
    expect(first.body.equals(file)).toBe(true);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(first.headers['x-accel-expires']).toBeUndefined();
    const beforeSecond = mark();
    const second = await call('GET', address);
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.body.equals(file)).toBe(true);
    expect(received('/api/media', beforeSecond)).toEqual([0, 0, 0]);
    // A refusal is never kept: a wrong signature reaches a node each time.
    const forged = address.replace(/signature=[^&]+/, 'signature=forged');
    for (let i = 0; i < 2; i += 1) {
      const refused = await call('GET', forged);
      expect(refused.status).toBe(403);
      expect(refused.headers['x-cache-status']).toBe('MISS');
    }

    // Kept until the address expires, and not a second longer: an address signed to expire in
    // two seconds is served from the cache until then, and refused by a node from then on.
    const id = message?.id ?? 0;
    const soon = mediaUrlExpiring(a.ctx, id, Math.floor(Date.now() / 1000) + 2);
    const expires = Number(new URL(soon, base).searchParams.get('expires')) * 1000;
    expect((await call('GET', soon)).headers['x-cache-status']).toBe('MISS');
    const answers: { status: number; cache: string; at: number }[] = [];
    await vi.waitFor(
      async () => {
        const at = Date.now();
        const answer = await call('GET', soon);
        answers.push({ status: answer.status, cache: String(answer.headers['x-cache-status']), at });
        expect(answer.status).toBe(403);
      },
      { timeout: 10_000, interval: 100 },
    );
    // Every answer before the refusal came from the cache, and no request sent after the expiry got the file.
    expect(answers.slice(0, -1).every((answer) => answer.status === 200 && answer.cache === 'HIT')).toBe(true);
    expect(answers.filter((answer) => answer.status === 200 && answer.at > expires)).toEqual([]);
  });

  it('redirects plain HTTP to HTTPS and hides /metrics', async (context) => {
    if (!proxy) return context.skip();
    const redirect = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`http://127.0.0.1:${httpPort}/tickets?status=open`, { agent: false }, resolve).once('error', reject);
    });
    redirect.resume();
    expect(redirect.statusCode).toBe(301);
    // $host carries no port: on the real ports (80 and 443) this is the same address over HTTPS.
    expect(redirect.headers.location).toBe('https://127.0.0.1/tickets?status=open');
    const before = mark();
    expect((await call('GET', '/metrics')).status).toBe(404);
    expect(received('/metrics', before)).toEqual([0, 0, 0]);
  });
});
