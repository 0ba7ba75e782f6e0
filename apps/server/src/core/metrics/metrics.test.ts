/**
 * GET /metrics as Prometheus scrapes it: the text format with the product's names and types,
 * counters that move with traffic (HTTP by route pattern, inbound messages from the simulator),
 * the outbound queue's depth and age, who may read it (METRICS_TOKEN on the main port, the
 * METRICS_PORT listener without one, 404 when neither is set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { parsePrometheusText, samplesOf, sumOf, type Scrape } from '../../test/prometheus-text.js';
import { nowIso } from '../time.js';

const TOKEN = 'metrics-token-0123456789';

let t: TestApp;
let plain: TestApp;

async function scrape(): Promise<Scrape> {
  const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(res.body);
}

async function connectedSimulator(): Promise<TWhatsapp> {
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: `Sim ${Date.now()}`, channel: 'simulator' } });
  expect(created.statusCode).toBe(201);
  const connection = created.json<TWhatsapp>();
  expect((await t.request({ method: 'POST', url: `/api/simulator/${connection.id}/scan`, token: t.adminToken })).statusCode).toBe(200);
  return connection;
}

beforeAll(async () => {
  // Two apps in one process: each has a registry of its own.
  t = await createTestApp({ SIMULATOR: 'on', METRICS_TOKEN: TOKEN, METRICS_HOST: '127.0.0.1', METRICS_PORT: '0' });
  plain = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

describe('GET /metrics', () => {
  it('lists every metric of the product with its type, and Node process metrics', async () => {
    const s = await scrape();
    const expected: Record<string, string> = {
      zapdesk_http_requests_total: 'counter',
      zapdesk_http_request_duration_seconds: 'histogram',
      zapdesk_socket_connections: 'gauge',
      zapdesk_socket_connections_opened_total: 'counter',
      zapdesk_sessions: 'gauge',
      zapdesk_inbound_messages_total: 'counter',
      zapdesk_inbound_pipeline_duration_seconds: 'histogram',
      zapdesk_outbound_queue_depth: 'gauge',
      zapdesk_outbound_queue_oldest_age_seconds: 'gauge',
      zapdesk_campaign_sends_total: 'counter',
      zapdesk_webhook_deliveries_total: 'counter',
      zapdesk_webhook_delivery_duration_seconds: 'histogram',
      zapdesk_job_round_duration_seconds: 'histogram',
      zapdesk_job_seconds_since_last_round: 'gauge',
      zapdesk_read_memo_total: 'counter',
      zapdesk_db_pool_connections: 'gauge',
      zapdesk_process_cpu_user_seconds_total: 'counter',
      zapdesk_process_resident_memory_bytes: 'gauge',
      zapdesk_nodejs_eventloop_lag_seconds: 'gauge',
    };
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, s.types.get(name)]))).toEqual(expected);
    // Every family is ours: nothing without the prefix.
    expect([...s.types.keys()].filter((name) => !name.startsWith('zapdesk_'))).toEqual([]);
    for (const name of s.types.keys()) expect(s.helps.get(name), name).toBeTruthy();
    // The jobs' rounds: each named loop reports how long since its last round.
    await waitFor(
      async () => samplesOf(await scrape(), 'zapdesk_job_seconds_since_last_round').map((x) => x.labels.job),
      (jobs) => ['outbound', 'campaigns', 'chatbot', 'assignment'].every((job) => jobs.includes(job)),
    );
    expect(sumOf(s, 'zapdesk_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    // A single node: no node label.
    expect(s.samples.some((x) => 'node' in x.labels)).toBe(false);
  });

  it('counts requests by route pattern and status, with their latencies', async () => {
    const { id } = await t.inboundTicket((await connectedSimulator()).id);
    const labels = { method: 'GET', route: '/api/tickets/:id', status_code: '200' };
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) expect((await t.request({ method: 'GET', url: `/api/tickets/${id}`, token: t.adminToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/tickets/999999999', token: t.adminToken })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/no-such-route/123' })).statusCode).toBe(404);
    const after = await scrape();
    expect(sumOf(after, 'zapdesk_http_requests_total', labels) - sumOf(before, 'zapdesk_http_requests_total', labels)).toBe(3);
    expect(sumOf(after, 'zapdesk_http_request_duration_seconds_count', labels) - sumOf(before, 'zapdesk_http_request_duration_seconds_count', labels)).toBe(3);
    const notFound = { method: 'GET', route: '/api/tickets/:id', status_code: '404' };
    expect(sumOf(after, 'zapdesk_http_requests_total', notFound) - sumOf(before, 'zapdesk_http_requests_total', notFound)).toBe(1);
    // A histogram's buckets are cumulative, up to +Inf which counts them all.
    const buckets = samplesOf(after, 'zapdesk_http_request_duration_seconds_bucket').filter((x) => x.labels.route === '/api/tickets/:id' && x.labels.status_code === '200');
    expect(buckets.at(-1)?.labels.le).toBe('+Inf');
    expect(buckets.at(-1)?.value).toBe(sumOf(after, 'zapdesk_http_request_duration_seconds_count', labels));
    // The route is the pattern: never a URL with its ids, nor an unknown path.
    const routes = new Set(samplesOf(after, 'zapdesk_http_requests_total').map((x) => x.labels.route));
    expect([...routes].filter((route) => /\d/.test(route ?? ''))).toEqual([]);
    expect(routes.has('unmatched')).toBe(true);
    expect(routes.has('/api/no-such-route/123')).toBe(false);
  });

  it('counts inbound messages and their pipeline latency, and sessions by status', async () => {
    const connection = await connectedSimulator();
    const before = await scrape();
    expect(sumOf(before, 'zapdesk_sessions', { status: 'CONNECTED' })).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i += 1) await t.inboundTicket(connection.id, `olá ${i}`);
    const after = await waitFor(scrape, (s) => sumOf(s, 'zapdesk_inbound_messages_total', { outcome: 'stored' }) - sumOf(before, 'zapdesk_inbound_messages_total', { outcome: 'stored' }) >= 3);
    expect(sumOf(after, 'zapdesk_inbound_pipeline_duration_seconds_count') - sumOf(before, 'zapdesk_inbound_pipeline_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(sumOf(after, 'zapdesk_inbound_pipeline_duration_seconds_sum')).toBeGreaterThan(0);
    // Listing tickets goes through the read memo.
    for (let i = 0; i < 2; i += 1) await t.request({ method: 'GET', url: '/api/tickets?status=open', token: t.adminToken });
    expect(sumOf(await scrape(), 'zapdesk_read_memo_total')).toBeGreaterThan(sumOf(before, 'zapdesk_read_memo_total'));
  });

  it('counts campaign sends by outcome', async () => {
    const connection = await connectedSimulator();
    const before = await scrape();
    const created = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      // The country code 999 has no account on the simulated network: that send fails for good.
      payload: { kind: 'text', whatsappId: connection.id, numbers: '5511955550001\n5511955550002\n+999 1234-5678', message: 'Oi', minDelay: 0, maxDelay: 0 },
    });
    expect(created.statusCode).toBe(201);
    const moved = (s: Scrape, outcome: string) => sumOf(s, 'zapdesk_campaign_sends_total', { outcome }) - sumOf(before, 'zapdesk_campaign_sends_total', { outcome });
    const after = await waitFor(scrape, (s) => moved(s, 'sent') + moved(s, 'failed') >= 3);
    expect({ sent: moved(after, 'sent'), failed: moved(after, 'failed') }).toEqual({ sent: 2, failed: 1 });
  });

  it("shows the outbound queue's depth and the age of its oldest send", async () => {
    const connection = await t.insertWhatsapp();
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const later = new Date(Date.now() + 24 * 3600_000).toISOString();
    const before = await scrape();
    // Queued for later: the dispatcher leaves them where they are.
    for (let i = 0; i < 4; i += 1) {
      await t.ctx.db
        .insertInto('outbox')
        .values({
          whatsappId: connection.id,
          providerId: `metrics-${Date.now()}-${i}`,
          messageId: null,
          chat: JSON.stringify({ kind: 'person', number: '5511999990000' }),
          content: JSON.stringify({ kind: 'text', body: 'oi' }),
          quotedProviderId: null,
          status: 'queued',
          attempts: 0,
          error: null,
          dueAt: later,
          sentAt: null,
          createdAt: i === 0 ? hourAgo : nowIso(),
          updatedAt: nowIso(),
        })
        .execute();
    }
    const after = await scrape();
    expect(sumOf(after, 'zapdesk_outbound_queue_depth', { state: 'queued' }) - sumOf(before, 'zapdesk_outbound_queue_depth', { state: 'queued' })).toBe(4);
    const age = sumOf(after, 'zapdesk_outbound_queue_oldest_age_seconds');
    expect(age).toBeGreaterThanOrEqual(3600);
    expect(age).toBeLessThan(3600 + 600);
    await t.ctx.db.deleteFrom('outbox').where('whatsappId', '=', connection.id).execute();
    expect(sumOf(await scrape(), 'zapdesk_outbound_queue_depth', { state: 'queued' })).toBe(sumOf(before, 'zapdesk_outbound_queue_depth', { state: 'queued' }));
  });

  it('counts realtime sockets open on this node', async () => {
    const url = await t.listen();
    const socket = connectSocket(url, { path: '/socket.io', auth: { token: t.adminToken }, transports: ['websocket'], reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const s = await waitFor(scrape, (x) => sumOf(x, 'zapdesk_socket_connections', { namespace: '/' }) >= 1);
      expect(sumOf(s, 'zapdesk_socket_connections_opened_total', { namespace: '/' })).toBeGreaterThanOrEqual(1);
    } finally {
      socket.close();
    }
    await waitFor(scrape, (x) => sumOf(x, 'zapdesk_socket_connections', { namespace: '/' }) === 0);
  });
});

describe('who may read /metrics', () => {
  it('answers 401 in the product error shape without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
      expect(res.body).not.toContain('zapdesk_');
    }
    // A user's session token is no metrics token.
    expect((await t.request({ method: 'GET', url: '/metrics', token: t.adminToken })).statusCode).toBe(401);
  });

  it('answers 404 on the main port when no token is set', async () => {
    const res = await plain.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    expect(plain.metricsUrl).toBeUndefined();
  });

  it('serves /metrics without a token on the METRICS_PORT listener, and nothing else there', async () => {
    expect(t.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${t.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    const s = parsePrometheusText(await res.text());
    expect(s.types.get('zapdesk_http_requests_total')).toBe('counter');
    for (const path of ['/', '/api/health', '/metrics/x', '/api/tickets']) expect((await fetch(`${t.metricsUrl}${path}`)).status, path).toBe(404);
    expect((await fetch(`${t.metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
