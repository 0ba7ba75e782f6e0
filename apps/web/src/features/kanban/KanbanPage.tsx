/**
 * The Kanban board: the tickets the user may see as cards, in columns by status (Queue, In service,
 * Resolved) or by queue. Dropping a card on another column accepts, returns, resolves, reopens or
 * transfers the ticket through the tickets API; the columns share the tickets screen's cached
 * lists, so socket events keep both in step.
 */
import { DndContext, DragOverlay, KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminProfile, NO_QUEUE_COLOR, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TQueueRef } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { draggedTicketId, labelColumns } from '../labels/kanbanByLabel';
import { useLabels } from '../labels/labels.api';
import { useQueues } from '../queues/queues.api';
import { uniqueTickets, useTicketsQuery } from '../tickets/ticketLists';
import { KanbanCardView } from './KanbanCard';
import { KanbanColumn, type ColumnSpec } from './KanbanColumn';
import { canMove, isSameColumn, moveTicket, targetId } from './kanban.api';
import { useJoinTicketLists } from './useJoinTicketLists';

type View = 'status' | 'queue' | 'label';
type TicketsQuery = ReturnType<typeof useTicketsQuery>;

/** A click right after a drag ends is the drag's own mouse-up, not a request to open the chat. */
const CLICK_AFTER_DRAG_MS = 250;

const STATUS_COLORS: Record<TicketStatus, string> = { pending: '#ED6C02', open: '#00796B', closed: '#607D8B' };

const byActivity = (a: TTicket, b: TTicket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

function statusColumn(status: TicketStatus, title: string, query: TicketsQuery): ColumnSpec {
  const tickets = uniqueTickets(query.data);
  return {
    target: { kind: 'status', status },
    title,
    color: STATUS_COLORS[status],
    tickets,
    count: query.data?.pages[0]?.count ?? tickets.length,
    loading: query.isPending,
    hasMore: query.hasNextPage,
    fetchingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
    // Resolved tickets pile up: the column shows the latest until asked for more.
    paging: status === 'closed' ? 'button' : 'scroll',
  };
}

export default function KanbanPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const isAdmin = user ? isAdminProfile(user.profile) : false;
  const [view, setView] = useState<View>('status');
  const [showAllChoice, setShowAll] = useState(true);
  const showAll = isAdmin && showAllChoice;
  const [dragged, setDragged] = useState<TTicket | null>(null);
  const lastDragEnd = useRef(0);

  const pendingQuery = useTicketsQuery({ status: 'pending', showAll });
  const openQuery = useTicketsQuery({ status: 'open', showAll });
  const closedQuery = useTicketsQuery({ status: 'closed', showAll }, { enabled: view === 'status' });
  const queuesQuery = useQueues();
  const labelsQuery = useLabels();
  useJoinTicketLists();

  const error = pendingQuery.error ?? openQuery.error ?? closedQuery.error;
  useEffect(() => {
    if (error) toastError(error);
  }, [error]);

  const columns = useMemo((): ColumnSpec[] => {
    if (view === 'status') {
      return [
        statusColumn('pending', t('kanban.columns.pending'), pendingQuery),
        statusColumn('open', t('kanban.columns.open'), openQuery),
        statusColumn('closed', t('kanban.columns.closed'), closedQuery),
      ];
    }
    // By queue: the tickets still being worked on, one column per queue the user may see.
    const active = [...uniqueTickets(pendingQuery.data), ...uniqueTickets(openQuery.data)].sort(byActivity);
    const visible: TQueueRef[] = (showAll ? queuesQuery.data : undefined) ?? user?.queues ?? [];
    const queues = new Map<number, TQueueRef>(visible.map((queue) => [queue.id, { id: queue.id, name: queue.name, color: queue.color }]));
    for (const ticket of active) if (ticket.queue && !queues.has(ticket.queue.id)) queues.set(ticket.queue.id, ticket.queue);
    const hasMore = Boolean(pendingQuery.hasNextPage || openQuery.hasNextPage);
    const loadMore = () => {
      if (pendingQuery.hasNextPage) void pendingQuery.fetchNextPage();
      if (openQuery.hasNextPage) void openQuery.fetchNextPage();
    };
    const common = {
      loading: pendingQuery.isPending || openQuery.isPending,
      hasMore,
      fetchingMore: pendingQuery.isFetchingNextPage || openQuery.isFetchingNextPage,
      loadMore,
      paging: 'button' as const,
    };
    if (view === 'label') return labelColumns({ active, labels: labelsQuery.data ?? [], noLabelTitle: t('labels.kanbanNoLabel'), common });
    const noQueue = active.filter((ticket) => ticket.queueId === null);
    return [
      { ...common, target: { kind: 'queue', queue: null }, title: t('kanban.noQueue'), color: NO_QUEUE_COLOR, tickets: noQueue, count: noQueue.length },
      ...[...queues.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((queue): ColumnSpec => {
          const tickets = active.filter((ticket) => ticket.queueId === queue.id);
          return { ...common, target: { kind: 'queue', queue }, title: queue.name, color: queue.color, tickets, count: tickets.length };
        }),
    ];
  }, [view, t, pendingQuery, openQuery, closedQuery, queuesQuery.data, labelsQuery.data, showAll, user?.queues]);

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    // On a phone a short press still scrolls the board; a long press picks the card up.
    useSensor(TouchSensor, { activationConstraint: { delay: 220, tolerance: 8 } }),
    useSensor(KeyboardSensor),
  );

  const ticketsById = useMemo(() => new Map(columns.flatMap((column) => column.tickets.map((ticket) => [ticket.id, ticket] as const))), [columns]);
  const targets = useMemo(() => new Map(columns.map((column) => [targetId(column.target), column.target])), [columns]);

  const onDragStart = ({ active }: DragStartEvent) => setDragged(ticketsById.get(draggedTicketId(active.id)) ?? null);
  const onDragEnd = ({ over }: DragEndEvent) => {
    const ticket = dragged;
    setDragged(null);
    lastDragEnd.current = Date.now();
    const target = over ? targets.get(String(over.id)) : undefined;
    // A refused or empty drop leaves the card where it was.
    if (!ticket || !user || !target || isSameColumn(ticket, target) || !canMove(ticket, target)) return;
    moveTicket(queryClient, { ticket, target, me: user }).catch(toastError);
  };
  const onDragCancel = () => {
    setDragged(null);
    lastDragEnd.current = Date.now();
  };
  const wasDragging = () => Date.now() - lastDragEnd.current < CLICK_AFTER_DRAG_MS;

  // What a screen reader hears while a card is moved with the keyboard, in the interface's language.
  const columnTitle = (id: string | number | undefined) => columns.find((column) => targetId(column.target) === String(id))?.title ?? '';
  const cardName = (id: string | number) => ticketsById.get(draggedTicketId(id))?.contact.name ?? '';
  const accessibility = {
    screenReaderInstructions: { draggable: t('kanban.a11y.instructions') },
    announcements: {
      onDragStart: ({ active }: { active: { id: string | number } }) => t('kanban.a11y.picked', { name: cardName(active.id) }),
      onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
        over ? t('kanban.a11y.over', { name: cardName(active.id), column: columnTitle(over.id) }) : t('kanban.a11y.outside', { name: cardName(active.id) }),
      onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
        over ? t('kanban.a11y.dropped', { name: cardName(active.id), column: columnTitle(over.id) }) : t('kanban.a11y.cancelled', { name: cardName(active.id) }),
      onDragCancel: ({ active }: { active: { id: string | number } }) => t('kanban.a11y.cancelled', { name: cardName(active.id) }),
    },
  };

  return (
    <PageLayout
      title={t('menu.kanban')}
      subtitle={view === 'status' ? t('kanban.subtitle') : view === 'label' ? t('labels.kanbanSubtitle') : t('kanban.queueSubtitle')}
      testId="kanban-page"
      actions={
        <>
          <ToggleButtonGroup value={view} exclusive size="small" onChange={(_, value: View | null) => value && setView(value)} aria-label={t('kanban.view')} data-testid="kanban-view">
            <ToggleButton value="status" sx={{ px: 1.75 }} data-testid="kanban-view-status">
              {t('kanban.byStatus')}
            </ToggleButton>
            <ToggleButton value="queue" sx={{ px: 1.75 }} data-testid="kanban-view-queue">
              {t('kanban.byQueue')}
            </ToggleButton>
            <ToggleButton value="label" sx={{ px: 1.75 }} data-testid="kanban-view-label">
              {t('labels.kanbanByLabel')}
            </ToggleButton>
          </ToggleButtonGroup>
          {isAdmin ? (
            <FormControlLabel
              sx={{ ml: 1, mr: 0 }}
              control={<Switch size="small" checked={showAllChoice} onChange={(event) => setShowAll(event.target.checked)} data-testid="kanban-show-all" />}
              label={t('tickets.showAll')}
              slotProps={{ typography: { variant: 'body2' } }}
            />
          ) : null}
        </>
      }
    >
      <DndContext sensors={sensors} accessibility={accessibility} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={onDragCancel}>
        <Box sx={{ flex: 1, minHeight: 0, display: 'flex', gap: 1.5, overflowX: 'auto', pb: 1, scrollSnapType: { xs: 'x mandatory', sm: 'none' } }} data-testid="kanban-board" data-view={view}>
          {columns.map((column) => (
            <KanbanColumn key={targetId(column.target)} {...column} dragged={dragged} showStatus={view !== 'status'} wasDragging={wasDragging} />
          ))}
        </Box>
        <DragOverlay>{dragged ? <KanbanCardView ticket={dragged} showStatus={view !== 'status'} overlay /> : null}</DragOverlay>
      </DndContext>
    </PageLayout>
  );
}
