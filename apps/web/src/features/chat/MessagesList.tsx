/**
 * The chat's messages, oldest at the top: a separator per day, older pages loaded when scrolled
 * near the top, and the view kept at the bottom when a new message arrives.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatDay } from '../../core/ui/formatDate';
import { toastError } from '../../core/ui/toastError';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PhoneSendBubble } from '../phone/PhoneSendBubble';
import { usePhoneSends } from '../phone/phoneSends';
import { MessageBubble } from './MessageBubble';
import { NoteBubble } from '../notes/NoteBubble';
import { MessagesLoadFailed, OlderMessagesAlert } from './MessagesLoadingAlerts';
import { placePhoneSends } from './phoneTimeline';
import { useFollowEnd } from './useFollowEnd';
import { MessagesSkeleton } from './MessagesSkeleton';
import { deleteMessage, fetchMessagesPage, markTicketReadInCache, retryMessage, ticketsKeys } from '../tickets/tickets.api';

/** Older messages load when scrolled within this distance of the top. */
const TOP_THRESHOLD_PX = 50;
/** Virtuoso counts item indexes down from here as older pages are put above. */
const FIRST_INDEX = 1_000_000;
const CHAT_BACKGROUND = '#EFEAE2';
const SETTLE_FALLBACK_MS = 1500;
const AT_END_PX = 80;
/** A chat opens at its newest message (a constant: Virtuoso must not see a new value on each render). */
const OPEN_AT_END = { index: 'LAST', align: 'end' } as const;
/** How long to wait after an incoming message before telling the server the open chat read it. */
const MARK_READ_DELAY_MS = 800;

/** `contactId` undefined: the contact's SMS and calls are not shown (a ticket read through a mention). */
type Props = { ticketId: number; contactId: number | undefined; isGroup: boolean; onReply: (message: TMessage) => void };

export function MessagesList({ ticketId, contactId, isGroup, onReply }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [toDelete, setToDelete] = useState<TMessage | null>(null);
  const query = useInfiniteQuery({
    queryKey: ticketsKeys.messages(ticketId),
    queryFn: ({ pageParam }) => fetchMessagesPage(ticketId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    // Reopening a chat reads it again from the server (which also clears its unread count).
    staleTime: 0,
    gcTime: 0,
    // A 404: the ticket is gone, which the ticket's view says.
    meta: { notFound: 'quiet' },
  });
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError } = query;

  // The first page read clears the ticket's unread count.
  const loaded = data !== undefined;
  useEffect(() => {
    if (loaded) markTicketReadInCache(queryClient, ticketId);
  }, [loaded, queryClient, ticketId]);

  // Page 1 holds the newest messages; each page is oldest first. A message both on a newer and
  // an older page (the pages shift as messages arrive) counts as newer, so that loading an older
  // page adds exactly its new rows above: the count of older rows drives firstItemIndex.
  const { messages, olderCount } = useMemo(() => {
    const pages = data?.pages ?? [];
    const newestIds = new Set((pages[0]?.messages ?? []).map((message) => message.id));
    const seen = new Set<number>();
    const older: TMessage[] = [];
    for (const page of pages.slice(1).reverse()) {
      for (const message of page.messages) {
        if (seen.has(message.id) || newestIds.has(message.id)) continue;
        seen.add(message.id);
        older.push(message);
      }
    }
    return { messages: [...older, ...(pages[0]?.messages ?? [])], olderCount: older.length };
  }, [data]);
  const firstItemIndex = FIRST_INDEX - olderCount;
  // The contact's SMS and calls, at their time among the messages (never sent on WhatsApp).
  const phoneSends = usePhoneSends(isGroup ? undefined : contactId).data?.sends;
  const phone = useMemo(() => placePhoneSends(messages, phoneSends ?? [], !hasNextPage), [messages, phoneSends, hasNextPage]);

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

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteMessage(toDelete.id);
    } catch (caught) {
      toastError(caught);
    }
  };

  // The answer needs no handling: the message's new state arrives as a live update.
  const retry = (message: TMessage) => {
    retryMessage(message.id).catch(toastError);
  };

  // A picture loading after the first paint makes its row taller: stay at the bottom if we were there.
  // Older pages load only once the list has opened at the bottom: the first paint starts at the
  // top and must not count as the reader scrolling there. (Virtuoso's startReached fires when the
  // first row renders, which with the overscan is well before 50px: the top state is used instead.)
  const settled = useRef(false);
  const loadOlder = () => {
    if (settled.current && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };
  // Should the bottom state never be reported (an empty-looking list), settle after a moment anyway.
  const hasRows = messages.length > 0;
  // (Only once the list is at its end or shorter than the screen: on a busy machine the first
  // paint at the top can outlast the fallback, and must still not load older pages.)
  useEffect(() => {
    if (!hasRows) return;
    let timer: ReturnType<typeof setTimeout>;
    const settleWhenOpened = () => {
      const element = scroller.current;
      const opened = !element || element.scrollHeight <= element.clientHeight || element.scrollHeight - element.scrollTop - element.clientHeight < AT_END_PX;
      if (opened) settled.current = true;
      else timer = setTimeout(settleWhenOpened, SETTLE_FALLBACK_MS / 3);
    };
    timer = setTimeout(settleWhenOpened, SETTLE_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [hasRows]);
  const scroller = useRef<HTMLElement | null>(null);
  const [scrollerElement, setScrollerElement] = useState<HTMLElement | null>(null);
  const { stickToBottom, isAtEnd } = useFollowEnd(scroller, scrollerElement, AT_END_PX);
  // Each scroll within 50px of the top asks for the next older page (Virtuoso's top state only
  // reports changes, and stays 'at top' when a page arrives while the reader is still there).
  const loadOlderRef = useRef(loadOlder);
  loadOlderRef.current = loadOlder;
  useEffect(() => {
    if (!scrollerElement) return;
    const onScroll = () => {
      if (scrollerElement.scrollTop < TOP_THRESHOLD_PX) loadOlderRef.current();
    };
    scrollerElement.addEventListener('scroll', onScroll, { passive: true });
    return () => scrollerElement.removeEventListener('scroll', onScroll);
  }, [scrollerElement]);
  const onMediaLoad = () => {
    if (isAtEnd()) stickToBottom();
  };
  // New messages (sent or received) bring the list to the bottom. (Not Virtuoso's followOutput,
  // which also scrolled to the end when an older page was put above.)
  const newestId = messages[messages.length - 1]?.id;
  useEffect(() => {
    if (newestId !== undefined) stickToBottom();
  }, [newestId]);

  const renderItem = (index: number, message: TMessage) => {
    const position = index - firstItemIndex;
    const previousMessage = messages[position - 1];
    const day = formatDay(message.createdAt);
    const newDay = !previousMessage || formatDay(previousMessage.createdAt) !== day;
    return (
      // flow-root: no child margin may leak out of the row, or Virtuoso would measure it short.
      <Box sx={{ display: 'flow-root', px: { xs: 1, sm: 2.5 }, pb: 0.75 }}>
        {phone.before.get(message.id)?.map((send) => (
          <PhoneSendBubble key={`${send.kind}-${send.campaignId}`} send={send} />
        ))}
        {newDay ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', my: 1.5 }}>
            <Chip label={day} size="small" sx={{ bgcolor: '#E1F3FB', fontWeight: 500 }} data-testid="day-separator" />
          </Box>
        ) : null}
        {message.isNote ? (
          <NoteBubble message={message} onDelete={setToDelete} />
        ) : (
          <MessageBubble message={message} showSender={isGroup && !message.fromMe} onReply={onReply} onDelete={setToDelete} onRetry={retry} onMediaLoad={onMediaLoad} />
        )}
        {position === messages.length - 1 ? phone.after.map((send) => <PhoneSendBubble key={`${send.kind}-${send.campaignId}`} send={send} />) : null}
      </Box>
    );
  };

  return (
    <Box sx={{ flex: 1, minHeight: 0, position: 'relative', bgcolor: CHAT_BACKGROUND }}>
      {query.isError && !data ? (
        <MessagesLoadFailed onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : query.isPending ? (
        <MessagesSkeleton />
      ) : messages.length === 0 ? (
        <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }} data-testid="messages-list">
          <Typography color="text.secondary" data-testid="messages-empty">
            {t('chat.empty')}
          </Typography>
        </Box>
      ) : (
        <Virtuoso
          key={ticketId}
          scrollerRef={(element) => {
            scroller.current = element instanceof HTMLElement ? element : null;
            setScrollerElement(scroller.current);
          }}
          atBottomStateChange={(value) => {
            if (value && !settled.current) {
              settled.current = true;
              stickToBottom();
              // A chat shorter than the screen is at the top too: bring the older pages. (Measured
              // on the scroller a frame later: Virtuoso's top state may still hold the first paint's
              // 'at top' when the bottom state arrives.)
              requestAnimationFrame(() => {
                const element = scroller.current;
                if (element && element.scrollHeight - element.clientHeight < TOP_THRESHOLD_PX) loadOlderRef.current();
              });
            }
          }}
          atBottomThreshold={AT_END_PX}
          // Rows measured taller than estimated (a wrapped text, a picture) would leave a reader who
          // was at the bottom a few pixels short of it.
          totalListHeightChanged={() => {
            if (isAtEnd()) stickToBottom();
          }}
          style={{ height: '100%', overflowX: 'hidden' }}
          data={messages}
          firstItemIndex={firstItemIndex}
          initialTopMostItemIndex={OPEN_AT_END}
          computeItemKey={(_index, message) => message.id}
          itemContent={renderItem}
          atTopThreshold={TOP_THRESHOLD_PX}
          atTopStateChange={(value) => {
            if (value) loadOlder();
          }}
          // Short chats render whole; long ones keep about a screen's worth mounted either side.
          increaseViewportBy={{ top: 1000, bottom: 1000 }}
          data-testid="messages-list"
        />
      )}
      <OlderMessagesAlert loading={isFetchingNextPage} failed={isFetchNextPageError && !isFetchingNextPage} onRetry={() => void fetchNextPage()} />
      <ConfirmationDialog open={toDelete !== null} title={t('chat.deleteTitle')} onClose={() => setToDelete(null)} onConfirm={confirmDelete}>
        {t('chat.deleteBody')}
      </ConfirmationDialog>
    </Box>
  );
}
