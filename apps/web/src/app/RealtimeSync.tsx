/**
 * The one place that maps socket events onto the cached lists (and onto the signed-in user),
 * so every open list follows creates, updates and deletes made in any tab.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ServerToClientEvents } from '@zapdesk/shared/realtime';
import { endSessionLocally } from '../core/api/client';
import { useAuth } from '../core/auth/AuthProvider';
import { onRoomsJoined, useSocket } from '../core/realtime/SocketProvider';
import { applyCampaignEvent } from '../features/campaigns/campaigns.api';
import { applyContactEvent } from '../features/contacts/contacts.api';
import { applyLabelEvent } from '../features/labels/labels.api';
import { applyQueueEvent } from '../features/queues/queues.api';
import { applyQuickAnswerEvent } from '../features/quickAnswers/quickAnswers.api';
import { applySettingsEvent } from '../features/settings/settings.api';
import { applyAppMessageEvent, applyTicketEvent, ticketsKeys } from '../features/tickets/tickets.api';
import { applyUserEvent } from '../features/users/users.api';
import { applyWhatsappEvent, applyWhatsappSessionEvent } from '../features/whatsapps/whatsapps.api';

export function RealtimeSync() {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const { user, setUser } = useAuth();
  const userId = user?.id;
  // The ticket lists need the user's profile and queues to tell where a ticket belongs; a ref keeps
  // the listeners from being re-attached on every user update.
  const userRef = useRef(user);
  useEffect(() => {
    userRef.current = user;
  }, [user]);

  useEffect(() => {
    if (!socket) return;
    const onUser: ServerToClientEvents['user'] = (payload) => {
      applyUserEvent(queryClient, payload);
      if (payload.action === 'delete') {
        if (payload.userId === userId) endSessionLocally();
      } else if (payload.user.id === userId) {
        setUser(payload.user);
      }
    };
    const onQueue: ServerToClientEvents['queue'] = (payload) => applyQueueEvent(queryClient, payload);
    const onQuickAnswer: ServerToClientEvents['quickAnswer'] = (payload) => applyQuickAnswerEvent(queryClient, payload);
    const onContact: ServerToClientEvents['contact'] = (payload) => applyContactEvent(queryClient, payload);
    const onSettings: ServerToClientEvents['settings'] = (payload) => applySettingsEvent(queryClient, payload);
    const onWhatsapp: ServerToClientEvents['whatsapp'] = (payload) => applyWhatsappEvent(queryClient, payload);
    const onWhatsappSession: ServerToClientEvents['whatsappSession'] = (payload) => applyWhatsappSessionEvent(queryClient, payload);
    const onTicket: ServerToClientEvents['ticket'] = (payload) => applyTicketEvent(queryClient, payload, userRef.current);
    const onAppMessage: ServerToClientEvents['appMessage'] = (payload) => applyAppMessageEvent(queryClient, payload, userRef.current);
    const onCampaign: ServerToClientEvents['campaign'] = (payload) => applyCampaignEvent(queryClient, payload);
    const onLabel: ServerToClientEvents['label'] = (payload) => applyLabelEvent(queryClient, payload);
    // Ticket events sent before the socket had joined its rooms (while the page was opening, or
    // during a network blip) are not replayed: once joined, the tickets are read again.
    const stopJoined = onRoomsJoined(socket, () => void queryClient.invalidateQueries({ queryKey: ticketsKeys.all }));
    socket.on('user', onUser);
    socket.on('ticket', onTicket);
    socket.on('appMessage', onAppMessage);
    socket.on('queue', onQueue);
    socket.on('quickAnswer', onQuickAnswer);
    socket.on('contact', onContact);
    socket.on('settings', onSettings);
    socket.on('whatsapp', onWhatsapp);
    socket.on('whatsappSession', onWhatsappSession);
    socket.on('campaign', onCampaign);
    socket.on('label', onLabel);
    return () => {
      stopJoined();
      socket.off('user', onUser);
      socket.off('ticket', onTicket);
      socket.off('appMessage', onAppMessage);
      socket.off('queue', onQueue);
      socket.off('quickAnswer', onQuickAnswer);
      socket.off('contact', onContact);
      socket.off('settings', onSettings);
      socket.off('whatsapp', onWhatsapp);
      socket.off('whatsappSession', onWhatsappSession);
      socket.off('campaign', onCampaign);
      socket.off('label', onLabel);
    };
  }, [socket, queryClient, userId, setUser]);

  return null;
}
