/**
 * The cluster mode (REDIS_URL) with three real nodes on one PostgreSQL database and a real Redis:
 * an event raised on node A reaches the sockets allowed to see it on node C, and not the others;
 * login attempts are counted across the nodes. Runs in the PostgreSQL project of the suite
 * (TEST_DATABASE_URL) with Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379); when either
 * is missing it says so and skips, except on CI, where it fails.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { ClientToServerEvents, ServerToClientEvents } from '@zapdesk/shared/realtime';
import { loadConfig } from '../core/config.js';
import { createPostgresDatabase, createTestApp, type TestApp } from '../test/harness.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../test/redis.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Client = { socket: ClientSocket; received: { event: string; payload: unknown }[] };

const REDIS_URL = TEST_REDIS_URL;
const onPostgres = process.env.TEST_DB === 'postgres';

describe('the cluster mode refuses', () => {
  it('REDIS_URL on SQLite, and a cluster without shared secrets, with a clear message', () => {
    expect(() => loadConfig({ REDIS_URL: REDIS_URL, DATA_DIR: '/tmp/zapdesk-never' })).toThrow(/REDIS_URL: the cluster mode needs PostgreSQL/);
    expect(() => loadConfig({ REDIS_URL: REDIS_URL, DATABASE_URL: 'postgres://127.0.0.1/none' })).toThrow(/JWT_SECRET, JWT_REFRESH_SECRET and SECRETS_KEY/);
  });
});

describe.runIf(onPostgres)('three nodes on PostgreSQL and Redis (run in the PostgreSQL project of the suite: TEST_DATABASE_URL, and Redis)', () => {
  const nodes: TestApp[] = [];
  const urls: string[] = [];
  const sockets: ClientSocket[] = [];
  let drop: (() => Promise<void>) | undefined;
  let ready = false;

  beforeAll(async () => {
    if (!(await redisForClusterTests())) return;
    const database = await createPostgresDatabase();
    // The files every node reads: a shared volume in a real deployment.
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-media-'));
    drop = async () => {
      await database.drop();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    };
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL,
      // One run's keys and channels only: parallel runs on the same Redis do not hear each other.
      REDIS_PREFIX: `zapdesk-test-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(24).toString('hex'),
      LOGIN_RATE_LIMIT: '5',
      MEDIA_DIR: mediaDir,
      SIMULATOR: 'on',
    };
    // One after the other: the first migrates and seeds, the others find it done.
    for (let i = 0; i < 3; i += 1) {
      const node = await createTestApp(shared);
      nodes.push(node);
      urls.push(await node.listen());
    }
    ready = true;
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const node of nodes.splice(0)) await node.close();
    await drop?.();
  });

  async function connect(url: string, token: string): Promise<Client> {
    const socket: ClientSocket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const received: Client['received'] = [];
    socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return { socket, received };
  }

  const named = (client: Client, event: string) => client.received.filter((r) => r.event === event).map((r) => r.payload);

  it('delivers an event raised on node A to the allowed sockets on node C, and not to the others', async (context) => {
    if (!ready) return context.skip();
    const [a, , c] = nodes;
    if (!a || !c) throw new Error('nodes missing');
    const agent = await a.createUser({ name: 'Agente sem fila' });
    // Signed in on node A, connected to node C: the nodes share the secrets and the database.
    const admin = await connect(urls[2] ?? '', a.adminToken);
    const plain = await connect(urls[2] ?? '', agent.token);
    expect((await a.request({ method: 'PUT', url: '/api/settings/typebotName', token: a.adminToken, payload: { value: 'fluxo-cluster' } })).statusCode).toBe(200);
    // Then something everyone sees: once the plain user has it, they would have had the setting too.
    const created = await a.request({ method: 'POST', url: '/api/quickAnswers', token: a.adminToken, payload: { shortcut: 'cluster', message: 'Olá de outro nó' } });
    expect(created.statusCode).toBe(201);
    await vi.waitFor(() => expect(named(admin, 'settings')).toContainEqual({ action: 'update', setting: expect.objectContaining({ key: 'typebotName', value: 'fluxo-cluster' }) }), { timeout: 5_000 });
    await vi.waitFor(() => expect(named(plain, 'quickAnswer')).toContainEqual(expect.objectContaining({ action: 'create' })), { timeout: 5_000 });
    expect(named(plain, 'settings')).toEqual([]);
    // Each event once, though three nodes share the Redis.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(named(admin, 'settings')).toHaveLength(1);
    expect(named(admin, 'quickAnswer')).toHaveLength(1);
  });

  it("carries whaticket's namespace /api too: node A's accept reaches a pending tab on node C as a delete", async (context) => {
    if (!ready) return context.skip();
    const [a] = nodes;
    if (!a) throw new Error('nodes missing');
    const phone = (await a.request({ method: 'POST', url: '/api/whatsapp', token: a.adminToken, payload: { name: 'Linha whaticket', channel: 'simulator' } })).json<{ id: number }>().id;
    expect((await a.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: a.adminToken })).statusCode).toBe(200);
    expect((await a.request({ method: 'POST', url: `/api/simulator/${phone}/inbound`, token: a.adminToken, payload: { from: '5511966665555', body: 'oi do whaticket' } })).statusCode).toBe(200);
    const tickets = (await a.request({ method: 'GET', url: '/api/tickets?status=pending&showAll=true', token: a.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    const ticket = tickets.find((item) => item.contact.number === '5511966665555');
    if (!ticket) throw new Error('no ticket');
    // As whaticket's frontend connects: namespace /api, the token in the query, the join without acknowledgement.
    const tab = connectSocket(`${urls[2] ?? ''}/api`, { query: { token: a.adminToken }, transports: ['websocket'], reconnection: false, forceNew: true });
    const heard: { event: string; payload: unknown }[] = [];
    tab.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      tab.once('connect', resolve);
      tab.once('connect_error', reject);
    });
    tab.emit('joinTickets', 'pending');
    await vi.waitFor(async () => expect((await nodes[2]?.io.of('/api').fetchSockets())?.find((s) => s.id === tab.id)?.rooms.size).toBeGreaterThan(2), { timeout: 5_000 });
    expect((await a.request({ method: 'PUT', url: `/api/tickets/${ticket.id}`, token: a.adminToken, payload: { status: 'open' } })).statusCode).toBe(200);
    await vi.waitFor(() => expect(heard).toContainEqual({ event: 'ticket', payload: { action: 'delete', ticketId: ticket.id } }), { timeout: 5_000 });
    tab.close();
  });

  it('counts login attempts across the nodes', async (context) => {
    if (!ready) return context.skip();
    const wrong = { email: 'nobody@test.local', password: 'not-the-password' };
    const statuses: number[] = [];
    // From one outside address, spread over the three nodes as a load balancer would.
    for (const node of [nodes[0], nodes[1], nodes[2], nodes[0], nodes[1], nodes[2]]) {
      const res = await node?.request({ method: 'POST', url: '/api/auth/login', payload: wrong, remoteAddress: '203.0.113.7' });
      statuses.push(res?.statusCode ?? 0);
    }
    // A limit of 5 a minute: the sixth attempt is refused, though this node saw only the second.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('serves a file that node A stored, from node C, at the address node A signed', async (context) => {
    if (!ready) return context.skip();
    const [a, , c] = nodes;
    if (!a || !c) throw new Error('nodes missing');
    const created = await a.request({ method: 'POST', url: '/api/whatsapp', token: a.adminToken, payload: { name: 'Telefone do cluster', channel: 'simulator' } });
    const phone = created.json<{ id: number }>().id;
    expect((await a.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: a.adminToken })).statusCode).toBe(200);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const sent = await a.request({
      method: 'POST',
      url: `/api/simulator/${phone}/inbound`,
      token: a.adminToken,
      payload: { from: '5511977776666', name: 'Cliente do cluster', body: '', media: { base64: png.toString('base64'), mimetype: 'image/png', filename: 'foto.png' } },
    });
    expect(sent.statusCode).toBe(200);
    const tickets = (await a.request({ method: 'GET', url: '/api/tickets?status=pending&showAll=true', token: a.adminToken })).json<{ tickets: TTicket[] }>().tickets;
    const ticket = tickets.find((item) => item.contact.number === '5511977776666');
    const messages = (await a.request({ method: 'GET', url: `/api/messages/${ticket?.id ?? 0}`, token: a.adminToken })).json<{ messages: TMessage[] }>().messages;
    const address = messages[0]?.mediaUrl ?? '';
    expect(address).toMatch(/^\/api\/media\/\d+\?expires=/);
    const file = await c.request({ method: 'GET', url: address });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
  });

  it('hands the events that drive other work to every node: a Typebot address set on node A is framed by node C at once', async (context) => {
    if (!ready) return context.skip();
    const [a, , c] = nodes;
    if (!a || !c) throw new Error('nodes missing');
    const frameSrc = async () => /frame-src ([^;]+)/.exec(String((await c.request({ method: 'GET', url: '/api/health' })).headers['content-security-policy']))?.[1];
    expect(await frameSrc()).not.toContain('bot.example.com');
    const set = await a.request({ method: 'PUT', url: '/api/settings/typebotUrl', token: a.adminToken, payload: { value: 'https://bot.example.com/fluxo' } });
    expect(set.statusCode).toBe(200);
    // Relayed through Redis: no waiting for a periodic re-read.
    await vi.waitFor(async () => expect(await frameSrc()).toBe("'self' https://bot.example.com"), { timeout: 2_000, interval: 50 });
  });

  it('sees a user online on node A while their socket is open on node C, and not after it closes', async (context) => {
    if (!ready) return context.skip();
    const [a] = nodes;
    if (!a) throw new Error('nodes missing');
    const agent = await a.createUser({ name: 'Agente em outro nó' });
    const onlineOnA = async () => (await a.request({ method: 'GET', url: '/api/users/online', token: a.adminToken })).json<{ userIds: number[] }>().userIds;
    expect(await onlineOnA()).not.toContain(agent.user.id);
    const client = await connect(urls[2] ?? '', agent.token);
    expect(await onlineOnA()).toContain(agent.user.id);
    client.socket.close();
    await vi.waitFor(async () => expect(await onlineOnA()).not.toContain(agent.user.id), { timeout: 5_000, interval: 50 });
  });
});
