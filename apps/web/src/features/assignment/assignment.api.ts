import { useQuery } from '@tanstack/react-query';
import type { TQueueAssignment, TQueueAssignmentInput } from '@zapdesk/shared/assignment';
import { request } from '../../core/api/client';

export const assignmentKey = (queueId: number) => ['queueAssignment', queueId] as const;

/** A queue's auto-assignment; a queue not created yet has none to read. */
export function useQueueAssignment(queueId: number | undefined) {
  return useQuery({
    queryKey: assignmentKey(queueId ?? 0),
    queryFn: () => request<TQueueAssignment>(`/queue/${queueId ?? 0}/assignment`),
    enabled: queueId !== undefined,
  });
}

export function saveQueueAssignment(queueId: number, input: TQueueAssignmentInput) {
  return request<TQueueAssignment>(`/queue/${queueId}/assignment`, { method: 'PUT', body: input });
}
