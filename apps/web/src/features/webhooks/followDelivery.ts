/**
 * After the admin's own action (a test, a resend) the server stores the delivery and answers with
 * it at once, pending; the row shows that answer straight away. Then this reads that one delivery
 * a few times a second until its attempt is done, so the row and the toast show how it went
 * without waiting for the list's next refresh.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TWebhookDelivery, TWebhookDeliveryDetail } from '@zapdesk/shared/webhooks';
import { request } from '../../core/api/client';
import { saveDeliveryInCache } from './webhooks.api';

const STEP_MS = 300;
/** Past this, the delivery is left to the list's own refresh (a slow receiver has ten seconds). */
const FOLLOW_MS = 15_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The delivery as last read, and whether its attempt finished (false: still waiting when following stopped). */
export async function followDelivery(queryClient: QueryClient, first: TWebhookDelivery): Promise<{ delivery: TWebhookDelivery; settled: boolean }> {
  saveDeliveryInCache(queryClient, first);
  const deadline = Date.now() + FOLLOW_MS;
  let current = first;
  const settled = (delivery: TWebhookDelivery) => delivery.status !== 'pending' || delivery.attempts > first.attempts;
  while (!settled(current) && Date.now() < deadline) {
    await wait(STEP_MS);
    const { body: _body, responseBody: _responseBody, ...row } = await request<TWebhookDeliveryDetail>(`/webhooks/${first.webhookId}/deliveries/${first.id}`);
    current = row;
  }
  if (current !== first) saveDeliveryInCache(queryClient, current);
  return { delivery: current, settled: settled(current) };
}
