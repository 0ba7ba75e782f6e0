import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { TBusinessHoursEntry, TBusinessHoursSettings } from '@zapdesk/shared/business-hours';
import { request, requestVoid } from '../../core/api/client';

export const businessHoursKey = ['business-hours'] as const;

/** The default first (hours null while none is set), then the queues that have their own. */
export function useBusinessHours() {
  return useQuery({ queryKey: businessHoursKey, queryFn: () => request<TBusinessHoursEntry[]>('/business-hours') });
}

const pathOf = (queueId: number | null) => (queueId === null ? '/business-hours/default' : `/business-hours/queues/${queueId}`);

export function saveBusinessHours(queueId: number | null, input: TBusinessHoursSettings) {
  return request<TBusinessHoursEntry>(pathOf(queueId), { method: 'PUT', body: input });
}

export function removeBusinessHours(queueId: number | null) {
  return requestVoid(pathOf(queueId), { method: 'DELETE' });
}

/** The list as the server now has it, without waiting for a refetch. */
export function putEntryInCache(queryClient: QueryClient, queueId: number | null, entry: TBusinessHoursEntry | null): void {
  queryClient.setQueryData<TBusinessHoursEntry[]>(businessHoursKey, (rows) => {
    if (!rows) return rows;
    const others = rows.filter((row) => row.queueId !== queueId);
    const replaced = entry ?? (queueId === null ? { queueId: null, hours: null, outOfHoursMessage: '' } : null);
    return replaced ? [...others, replaced].sort((a, b) => (a.queueId ?? 0) - (b.queueId ?? 0)) : others;
  });
  void queryClient.invalidateQueries({ queryKey: businessHoursKey });
}
