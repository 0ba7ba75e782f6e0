/**
 * Private notes and mentions: writing a note, the user's mentions (kept live through the
 * `mention` socket event) and marking one read or done.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import type { TMessage } from '@zapdesk/shared/messaging';
import type { MentionState, TMention, ZMentionListSchema } from '@zapdesk/shared/notes';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import type { TUser } from '@zapdesk/shared/schemas';
import { request } from '../../core/api/client';
import { useSocketSubscription, type AppSocket } from '../../core/realtime/SocketProvider';

export type MentionPage = z.output<typeof ZMentionListSchema>;

export const mentionsKeys = {
  all: ['mentions'] as const,
  list: (state: MentionState) => ['mentions', state] as const,
};

export function createNote(ticketId: number, body: string, mentionUserIds: number[]) {
  return request<TMessage>(`/tickets/${ticketId}/notes`, { method: 'POST', body: { body, mentionUserIds } });
}

export function fetchMentions(state: MentionState) {
  return request<MentionPage>('/mentions', { query: { state } });
}

export function markMention(id: number, action: 'read' | 'done') {
  return request<TMention>(`/mentions/${id}/${action}`, { method: 'PUT' });
}

/** Colleagues whose name matches, for the '@' list. */
export async function searchColleagues(search: string): Promise<Pick<TUser, 'id' | 'name'>[]> {
  const { users } = await request<{ users: TUser[] }>('/users', { query: { searchParam: search, pageNumber: 1 } });
  return users.map(({ id, name }) => ({ id, name }));
}

/**
 * The user's mentions (open or done), refreshed when one of theirs is created, read or ended on
 * any node. With `announce`, a new mention also shows a toast (the bell does it, once per tab).
 */
export function useMentions(state: MentionState, options: { announce?: boolean } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const announce = options.announce === true;
  const subscribe = useCallback(
    (socket: AppSocket) => {
      const onMention: ServerToClientEvents['mention'] = ({ action, mention }) => {
        void queryClient.invalidateQueries({ queryKey: mentionsKeys.all });
        if (announce && action === 'create') toast.info(t('notes.mentions.toast', { name: mention.by?.name ?? '' }));
      };
      socket.on('mention', onMention);
      // After a reconnect the list may have missed events.
      const onConnect = () => void queryClient.invalidateQueries({ queryKey: mentionsKeys.all });
      socket.on('connect', onConnect);
      return () => {
        socket.off('mention', onMention);
        socket.off('connect', onConnect);
      };
    },
    [queryClient, announce, t],
  );
  useSocketSubscription(subscribe);
  return useQuery({ queryKey: mentionsKeys.list(state), queryFn: () => fetchMentions(state) });
}
