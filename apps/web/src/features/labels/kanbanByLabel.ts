/** The Kanban's label view: the tickets being worked on, one column per label (and one for those without). */
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TLabelRef } from '@zapdesk/shared/schemas';
import { NO_QUEUE_COLOR } from '@zapdesk/shared/domain';
import type { ColumnSpec } from '../kanban/KanbanColumn';

type Common = Pick<ColumnSpec, 'loading' | 'hasMore' | 'fetchingMore' | 'loadMore' | 'paging'>;

/** A ticket with two labels shows in both columns; the labels' own order (by name) orders the columns. */
export function labelColumns(options: { active: TTicket[]; labels: readonly TLabelRef[]; noLabelTitle: string; common: Common }): ColumnSpec[] {
  const { active, common } = options;
  const labels = new Map<number, TLabelRef>(options.labels.map((label) => [label.id, label]));
  // A label met on a ticket but not (yet) in the list read from the server still gets its column.
  for (const ticket of active) for (const label of ticket.labels) if (!labels.has(label.id)) labels.set(label.id, label);
  const unlabelled = active.filter((ticket) => ticket.labels.length === 0);
  return [
    { ...common, target: { kind: 'label', label: null }, title: options.noLabelTitle, color: NO_QUEUE_COLOR, tickets: unlabelled, count: unlabelled.length },
    ...[...labels.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((label): ColumnSpec => {
        const tickets = active.filter((ticket) => ticket.labels.some((own) => own.id === label.id));
        return { ...common, target: { kind: 'label', label }, title: label.name, color: label.color, tickets, count: tickets.length };
      }),
  ];
}

/** The ticket a drag id names: a ticket id, or 'column|ticket id' where a ticket shows in several columns. */
export function draggedTicketId(id: string | number): number {
  return typeof id === 'number' ? id : Number(String(id).split('|').pop());
}
