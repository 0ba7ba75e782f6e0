/**
 * Outgoing webhooks: a private address is refused without ALLOW_PRIVATE_WEBHOOK_URLS (on save when
 * written as an address, at send time when a name resolves to one); a delivery the receiver keeps
 * refusing is failed when the retry window ends, and a resend delivers it under the same id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TWebhook, TWebhookDelivery } from '@zapdesk/shared/webhooks';
import { createTestApp, waitFor, type TestApp } from '../../test/harness.js';
import { deliveries, register } from '../../test/webhook-kit.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';

describe('the SSRF guard', () => {
  let strict: TestApp;
  let closing: Receiver;
  beforeAll(async () => {
    closing = await startReceiver();
    strict = await createTestApp({ WEBHOOK_RETRY_BASE_MS: '200' });
  });
  afterAll(async () => {
    await strict?.close();
    await closing?.stop();
  });

  it('refuses a private address written in the URL, and an attempt to a name that resolves to one fails as not allowed', async () => {
    for (const url of [closing.url, 'http://10.0.0.8/hook', 'http://[::1]:8080/hook', 'http://[::ffff:127.0.0.1]/hook']) {
      const res = await strict.request({ method: 'POST', url: '/api/webhooks', token: strict.adminToken, payload: { url, events: ['ticket.created'] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: string }>().error).toBe('ERR_WEBHOOK_URL_FORBIDDEN');
    }
    const named = await register(strict, `http://localhost:${closing.port}/hook`);
    const ping = (await strict.request({ method: 'POST', url: `/api/webhooks/${named.id}/ping`, token: strict.adminToken })).json<TWebhookDelivery>();
    const tried = await waitFor(
      async () => (await strict.request({ method: 'GET', url: `/api/webhooks/${named.id}/deliveries/${ping.id}`, token: strict.adminToken })).json<TWebhookDelivery>(),
      (d) => d.attempts >= 1,
    );
    expect(tried).toMatchObject({ status: 'pending', error: 'address not allowed', responseStatus: null });
    expect(closing.received).toHaveLength(0);
  });
});

describe('the retry window', () => {
  let short: TestApp;
  let failing: Receiver;
  beforeAll(async () => {
    failing = await startReceiver();
    short = await createTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: 'on', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_WINDOW_MS: '1500' });
  });
  afterAll(async () => {
    await short?.close();
    await failing?.stop();
  });

  it("gives up after the window ('failed'), and a resend starts a fresh window and delivers under the same id", async () => {
    failing.answer(503);
    const endpoint = await register(short, failing.url);
    failing.secrets.add(endpoint.secret);
    const ping = (await short.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/ping`, token: short.adminToken })).json<TWebhookDelivery>();
    const read = async () => (await short.request({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries/${ping.id}`, token: short.adminToken })).json<TWebhookDelivery>();
    const failed = await waitFor(read, (d) => d.status === 'failed');
    expect(failed).toMatchObject({ responseStatus: 503, error: 'HTTP 503', nextAttemptAt: null });
    expect(failed.attempts).toBeGreaterThanOrEqual(2);
    const listed = (await short.request({ method: 'GET', url: '/api/webhooks', token: short.adminToken })).json<TWebhook[]>();
    expect(listed.find((w) => w.id === endpoint.id)).toMatchObject({ failedCount: 1, pendingCount: 0 });
    expect((await deliveries(short, endpoint.id, '&status=failed')).map((d) => d.id)).toEqual([ping.id]);

    failing.answer(200);
    const resent = await short.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/deliveries/${ping.id}/resend`, token: short.adminToken });
    expect(resent.json<TWebhookDelivery>()).toMatchObject({ status: 'pending', id: ping.id });
    const delivered = await waitFor(read, (d) => d.status === 'delivered');
    expect(delivered.attempts).toBe(failed.attempts + 1);
    expect(failing.delivered().map((r) => r.id)).toEqual([ping.id]);
    expect(failing.received.every((r) => r.validSignature && r.event === 'ping')).toBe(true);
  });
});
