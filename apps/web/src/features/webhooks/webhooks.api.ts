/** Outgoing webhooks: the admin's endpoints and each one's deliveries, and the cache patches that show an action's answer at once. */
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { TWebhook, TWebhookDelivery, TWebhookDeliveryDetail, TWebhookDeliveryList, TWebhookInput, TWebhookUpdate, TWebhookWithSecret, WebhookDeliveryStatus } from '@zapdesk/shared/webhooks';
import { request, requestVoid } from '../../core/api/client';

/** While a list of deliveries is open it is read again this often: retries move on their own. */
const DELIVERIES_REFRESH_MS = 5_000;
/** The endpoints' pending and failed counts, likewise. */
const WEBHOOKS_REFRESH_MS = 15_000;

export const webhookKeys = {
  list: ['webhooks'] as const,
  deliveries: (webhookId: number) => ['webhooks', webhookId, 'deliveries'] as const,
  deliveryList: (webhookId: number, status: WebhookDeliveryStatus | '') => ['webhooks', webhookId, 'deliveries', 'list', status] as const,
  delivery: (webhookId: number, deliveryId: string) => ['webhooks', webhookId, 'deliveries', 'detail', deliveryId] as const,
};

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list, queryFn: () => request<TWebhook[]>('/webhooks'), refetchInterval: WEBHOOKS_REFRESH_MS });
}

export function createWebhook(input: TWebhookInput) {
  return request<TWebhookWithSecret>('/webhooks', { method: 'POST', body: input });
}

export function updateWebhook(id: number, input: TWebhookUpdate) {
  return request<TWebhook>(`/webhooks/${id}`, { method: 'PUT', body: input });
}

export function deleteWebhook(id: number) {
  return requestVoid(`/webhooks/${id}`, { method: 'DELETE' });
}

export function renewWebhookSecret(id: number) {
  return request<TWebhookWithSecret>(`/webhooks/${id}/secret`, { method: 'POST' });
}

export function pingWebhook(id: number) {
  return request<TWebhookDelivery>(`/webhooks/${id}/ping`, { method: 'POST' });
}

export function resendDelivery(webhookId: number, deliveryId: string) {
  return request<TWebhookDelivery>(`/webhooks/${webhookId}/deliveries/${deliveryId}/resend`, { method: 'POST' });
}

export function useDeliveries(webhookId: number, status: WebhookDeliveryStatus | '') {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveryList(webhookId, status),
    queryFn: ({ pageParam }) => request<TWebhookDeliveryList>(`/webhooks/${webhookId}/deliveries`, { query: { status: status || undefined, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}

export function useDelivery(webhookId: number, deliveryId: string | null) {
  return useQuery({
    queryKey: webhookKeys.delivery(webhookId, deliveryId ?? ''),
    queryFn: () => request<TWebhookDeliveryDetail>(`/webhooks/${webhookId}/deliveries/${deliveryId ?? ''}`),
    enabled: deliveryId !== null,
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}

/** Puts an endpoint as the server answered it in the list: a new one last, a changed one in its place. The secret is never kept. */
export function saveWebhookInCache(queryClient: QueryClient, webhook: TWebhook | TWebhookWithSecret): void {
  const { secret: _secret, ...kept } = { secret: '', ...webhook };
  queryClient.setQueryData<TWebhook[]>(webhookKeys.list, (list) => {
    if (!list) return list;
    return list.some((row) => row.id === kept.id) ? list.map((row) => (row.id === kept.id ? kept : row)) : [...list, kept];
  });
}

export function removeWebhookFromCache(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<TWebhook[]>(webhookKeys.list, (list) => list?.filter((row) => row.id !== id));
  queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) });
}

/**
 * A delivery as an action's answer gave it (a test sent, a resend): in its place in every cached
 * list of the endpoint, or first in the lists whose filter it matches; its detail is read again.
 */
export function saveDeliveryInCache(queryClient: QueryClient, delivery: TWebhookDelivery): void {
  const prefix = webhookKeys.deliveries(delivery.webhookId);
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<TWebhookDeliveryList>>({ queryKey: [...prefix, 'list'] })) {
    if (!data) continue;
    const filter = key[4];
    const matches = filter === '' || filter === delivery.status;
    const known = data.pages.some((page) => page.deliveries.some((row) => row.id === delivery.id));
    const pages = data.pages.map((page, index) => {
      const rows = known ? page.deliveries.flatMap((row) => (row.id !== delivery.id ? [row] : matches ? [delivery] : [])) : page.deliveries;
      return { ...page, deliveries: !known && matches && index === 0 ? [delivery, ...rows] : rows };
    });
    queryClient.setQueryData(key, { ...data, pages });
  }
  void queryClient.invalidateQueries({ queryKey: webhookKeys.delivery(delivery.webhookId, delivery.id) });
  // The endpoint's pending and failed counts follow.
  void queryClient.invalidateQueries({ queryKey: webhookKeys.list, exact: true });
}
