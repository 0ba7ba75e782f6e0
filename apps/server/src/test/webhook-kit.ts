/** Small helpers of the webhook tests: list an endpoint's deliveries, register an endpoint. */
import { expect } from 'vitest';
import type { TWebhookDelivery, TWebhookDeliveryList, TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { WEBHOOK_EVENTS } from '@zapdesk/shared/webhooks';
import type { TestApp } from './harness.js';

/** Every delivery of the endpoint (all pages), newest first; `query` e.g. '&status=pending'. */
export async function deliveries(app: TestApp, webhookId: number, query = ''): Promise<TWebhookDelivery[]> {
  const out: TWebhookDelivery[] = [];
  for (let page = 1; ; page += 1) {
    const res = await app.request({ method: 'GET', url: `/api/webhooks/${webhookId}/deliveries?pageNumber=${page}${query}`, token: app.adminToken });
    expect(res.statusCode).toBe(200);
    const list = res.json<TWebhookDeliveryList>();
    out.push(...list.deliveries);
    if (!list.hasMore) return out;
  }
}

export async function register(app: TestApp, url: string, events: readonly string[] = WEBHOOK_EVENTS): Promise<TWebhookWithSecret> {
  const res = await app.request({ method: 'POST', url: '/api/webhooks', token: app.adminToken, payload: { url, events } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TWebhookWithSecret>();
}
