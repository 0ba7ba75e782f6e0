import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TQueue, TQueueInput } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { removeFromArray, upsertInArray } from '../../core/lists/liveCache';

export const queuesKey = ['queues'] as const;

export function fetchQueues() {
  return request<TQueue[]>('/queue');
}

export function useQueues() {
  return useQuery({ queryKey: queuesKey, queryFn: fetchQueues });
}

export function createQueue(input: TQueueInput) {
  return request<TQueue>('/queue', { method: 'POST', body: input });
}

export function updateQueue(id: number, input: TQueueInput) {
  return request<TQueue>(`/queue/${id}`, { method: 'PUT', body: input });
}

export function deleteQueue(id: number) {
  return requestVoid(`/queue/${id}`, { method: 'DELETE' });
}

const byName = (a: TQueue, b: TQueue) => a.name.localeCompare(b.name);

export function saveQueueInCache(queryClient: QueryClient, queue: TQueue): void {
  upsertInArray(queryClient, queuesKey, queue, byName);
}

export function applyQueueEvent(queryClient: QueryClient, payload: Parameters<ServerToClientEvents['queue']>[0]): void {
  if (payload.action === 'delete') removeFromArray(queryClient, queuesKey, payload.queueId);
  else saveQueueInCache(queryClient, payload.queue);
}
