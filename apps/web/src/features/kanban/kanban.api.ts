/**
 * What a drop on the Kanban board does. By status, the spec's status table: accept (pending ->
 * open), return (open -> pending), resolve (open -> closed) and reopen (closed -> open); nothing
 * else. By queue, a transfer to the column's queue, which puts the ticket back in that queue's
 * waiting list unassigned, as the server's transfer does.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TLabelRef, TQueueRef, TUser } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { setTicketLabel } from '../labels/labels.api';
import { saveTicketInCache, updateTicketStatus } from '../tickets/tickets.api';

/** A column of the board: a status, a queue (null: tickets without a queue), or a label (null: tickets without one). */
export type KanbanTarget = { kind: 'status'; status: TicketStatus } | { kind: 'queue'; queue: TQueueRef | null } | { kind: 'label'; label: TLabelRef | null };

/** The status table's moves, from each status. */
export const STATUS_MOVES: Record<TicketStatus, readonly TicketStatus[]> = {
  pending: ['open'],
  open: ['pending', 'closed'],
  closed: ['open'],
};

/** The statuses the queue view shows: the tickets still being worked on. */
export const ACTIVE_STATUSES = ['pending', 'open'] as const satisfies readonly TicketStatus[];

export function targetId(target: KanbanTarget): string {
  if (target.kind === 'label') return `label:${target.label?.id ?? 'none'}`;
  return target.kind === 'status' ? `status:${target.status}` : `queue:${target.queue?.id ?? 'none'}`;
}

/** Whether dropping the ticket on the column is a move the server makes (dropping where it already is is none). */
export function canMove(ticket: TTicket, target: KanbanTarget): boolean {
  if (target.kind === 'status') return STATUS_MOVES[ticket.status].includes(target.status);
  // By label, a drop puts the column's label on the ticket; 'No label' takes none off.
  if (target.kind === 'label') return target.label !== null && !hasLabel(ticket, target.label.id);
  return ticket.status !== 'closed' && (target.queue?.id ?? null) !== ticket.queueId;
}

function hasLabel(ticket: TTicket, labelId: number): boolean {
  return ticket.labels.some((label) => label.id === labelId);
}

export function isSameColumn(ticket: TTicket, target: KanbanTarget): boolean {
  if (target.kind === 'label') return target.label ? hasLabel(ticket, target.label.id) : ticket.labels.length === 0;
  return target.kind === 'status' ? ticket.status === target.status : (target.queue?.id ?? null) === ticket.queueId;
}

/** The ticket as the server will answer it, shown at once while the request runs. */
function predict(ticket: TTicket, target: KanbanTarget, me: TUser): TTicket {
  if (target.kind === 'label') return target.label ? { ...ticket, labels: [...ticket.labels, target.label].sort((a, b) => a.name.localeCompare(b.name)) } : ticket;
  if (target.kind === 'queue') return { ...ticket, queueId: target.queue?.id ?? null, queue: target.queue, status: 'pending', userId: null, user: null };
  if (target.status === 'pending') return { ...ticket, status: 'pending', userId: null, user: null };
  return { ...ticket, status: target.status, userId: me.id, user: { id: me.id, name: me.name } };
}

export function transferTicketToQueue(id: number, queueId: number | null) {
  return request<TTicket>(`/tickets/${id}`, { method: 'PUT', body: { queueId } });
}

/**
 * Moves the card at once, then asks the server. A refusal puts the ticket back where it was and
 * is thrown for the caller's error toast.
 */
export async function moveTicket(queryClient: QueryClient, options: { ticket: TTicket; target: KanbanTarget; me: TUser }): Promise<TTicket> {
  const { ticket, target, me } = options;
  // The guess keeps the ticket's time, so the answer (or a live event) replaces it, and so does the original on a refusal.
  saveTicketInCache(queryClient, predict(ticket, target, me), me);
  try {
    const saved =
      target.kind === 'label'
        ? await setTicketLabel(ticket.id, target.label?.id ?? 0, true)
        : target.kind === 'status'
          ? await updateTicketStatus(ticket.id, target.status)
          : await transferTicketToQueue(ticket.id, target.queue?.id ?? null);
    saveTicketInCache(queryClient, saved, me);
    return saved;
  } catch (error) {
    saveTicketInCache(queryClient, ticket, me);
    throw error;
  }
}
