/**
 * The chat's messages, oldest at the top: a separator per day, older pages loaded when scrolled
 * near the top, and the view kept at the bottom when a new message arrives.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatDay } from '../../core/ui/formatDate';
import { toastError } from '../../core/ui/toastError';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { MessageBubble } from './MessageBubble';
import { deleteMessage, fetchMessagesPage, markTicketReadInCache, ticketsKeys } from './tickets.api';

/** Older messages load when scrolled within this distance of the top. */
const TOP_THRESHOLD_PX = 50;
/** How long to wait after an incoming message before telling the server the open chat read it. */
const MARK_READ_DELAY_MS = 800;

type Props = { ticketId: number; isGroup: boolean; onReply: (message: TMessage) => void };

export function MessagesList({ ticketId, isGroup, onReply }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const containerRef = useRef<HTMLDivElement | null>(null);
  const [toDelete, setToDelete] = useState<TMessage | null>(null);
  const query = useInfiniteQuery({
    queryKey: ticketsKeys.messages(ticketId),
    queryFn: ({ pageParam }) => fetchMessagesPage(ticketId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    // Reopening a chat reads it again from the server (which also clears its unread count).
    staleTime: 0,
    gcTime: 0,
  });
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, error } = query;

  useEffect(() => {
    if (error) toastError(error);
  }, [error]);

  // The first page read clears the ticket's unread count.
  const loaded = data !== undefined;
  useEffect(() => {
    if (loaded) markTicketReadInCache(queryClient, ticketId);
  }, [loaded, queryClient, ticketId]);

  // Page 1 holds the newest messages; each page is oldest first.
  const messages = useMemo(() => {
    const seen = new Set<number>();
    const rows: TMessage[] = [];
    for (const page of [...(data?.pages ?? [])].reverse()) {
      for (const message of page.messages) {
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        rows.push(message);
      }
    }
    return rows;
  }, [data]);

  // Scroll: to the bottom when the newest message changes; kept in place when older ones load above.
  const newestId = messages[messages.length - 1]?.id;
  const oldestId = messages[0]?.id;
  const previous = useRef<{ newestId: number | undefined; oldestId: number | undefined; scrollHeight: number; scrollTop: number }>({
    newestId: undefined,
    oldestId: undefined,
    scrollHeight: 0,
    scrollTop: 0,
  });
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const before = previous.current;
    if (newestId !== before.newestId) {
      element.scrollTop = element.scrollHeight;
    } else if (oldestId !== before.oldestId) {
      element.scrollTop = before.scrollTop + (element.scrollHeight - before.scrollHeight);
    }
    previous.current = { newestId, oldestId, scrollHeight: element.scrollHeight, scrollTop: element.scrollTop };
  }, [newestId, oldestId]);

  // A message that comes in while the chat is open is read: fetching the newest page tells the
  // server so (it clears the unread count and sends the read receipts), a moment after a burst.
  const newest = messages[messages.length - 1];
  const seenNewest = useRef<{ id: number | null } | null>(null);
  const markReadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!loaded) return;
    const id = newest?.id ?? null;
    const before = seenNewest.current;
    seenNewest.current = { id };
    // The first load has read everything already; only later arrivals count.
    if (before === null || before.id === id || !newest || newest.fromMe) return;
    clearTimeout(markReadTimer.current);
    markReadTimer.current = setTimeout(() => {
      fetchMessagesPage(ticketId, 1).catch(() => undefined);
    }, MARK_READ_DELAY_MS);
  }, [loaded, newest, ticketId]);
  useEffect(() => () => clearTimeout(markReadTimer.current), []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    previous.current = { ...previous.current, scrollHeight: element.scrollHeight, scrollTop: element.scrollTop };
    if (element.scrollTop < TOP_THRESHOLD_PX && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };

  // Media loading after the first paint makes the list taller: stay at the bottom if we were there.
  const onMediaLoad = () => {
    const element = containerRef.current;
    if (!element) return;
    const before = previous.current;
    const wasAtBottom = before.scrollHeight - (before.scrollTop + element.clientHeight) < 80;
    if (wasAtBottom) element.scrollTop = element.scrollHeight;
    previous.current = { ...before, scrollHeight: element.scrollHeight, scrollTop: element.scrollTop };
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteMessage(toDelete.id);
    } catch (caught) {
      toastError(caught);
    }
  };

  return (
    <Box
      ref={containerRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: { xs: 1, sm: 2.5 }, py: 1.5, bgcolor: '#EFEAE2' }}
      data-testid="messages-list"
    >
      {isFetchingNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
          <CircularProgress size={22} />
        </Box>
      ) : null}
      {query.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
          <CircularProgress />
        </Box>
      ) : messages.length === 0 ? (
        <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }} data-testid="messages-empty">
          <Typography color="text.secondary">{t('chat.empty')}</Typography>
        </Box>
      ) : (
        messages.map((message, index) => {
          const day = formatDay(message.createdAt);
          const previousMessage = messages[index - 1];
          const newDay = !previousMessage || formatDay(previousMessage.createdAt) !== day;
          return (
            <Fragment key={message.id}>
              {newDay ? (
                <Box sx={{ display: 'flex', justifyContent: 'center', my: 1.5 }}>
                  <Chip label={day} size="small" sx={{ bgcolor: '#E1F3FB', fontWeight: 500 }} data-testid="day-separator" />
                </Box>
              ) : null}
              <MessageBubble message={message} showSender={isGroup && !message.fromMe} onReply={onReply} onDelete={setToDelete} onMediaLoad={onMediaLoad} />
            </Fragment>
          );
        })
      )}
      <ConfirmationDialog open={toDelete !== null} title={t('chat.deleteTitle')} onClose={() => setToDelete(null)} onConfirm={confirmDelete}>
        {t('chat.deleteBody')}
      </ConfirmationDialog>
    </Box>
  );
}
