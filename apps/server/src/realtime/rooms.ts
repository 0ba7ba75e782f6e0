/**
 * The room names of the realtime gateway, on every namespace alike.
 *
 * Two kinds of rooms. Audience rooms say who may see a ticket (everyone, admins, a queue's
 * agents, an agent's own tickets); a socket is put in its user's audience rooms at connection.
 * Topic rooms say what a socket asked for: `joinNotification`, `joinTickets(status)` and
 * `joinChatBox(ticketId)`. A socket joins a topic once per audience room it is in
 * (`status:open@queue:3`), and a ticket event goes to the topic rooms of that ticket's audience
 * only, so it reaches exactly the sockets that asked for it and may see the ticket, on one
 * node or many (the room names do the intersection, the Redis adapter fans them out).
 */
import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { ticketAudiences, viewerAudiences } from '@zapdesk/shared/visibility';
import type { AuthUser } from '../features/users/users.repository.js';

/** Audience rooms: every signed-in user, admins only, one per user, one per queue, an agent's own tickets. */
export const ROOMS = {
  everyone: 'everyone',
  admins: 'admins',
  /** Users whose role holds allQueues: they hear every ticket, as admins do. */
  allQueues: 'allQueues',
  /** Those who may manage connections (admins, the connectionsManage permission): they get the QR codes. */
  connectionManagers: 'connectionManagers',
  user: (id: number) => `user:${id}`,
  queue: (id: number) => `queue:${id}`,
  /** Agents who belong to at least one queue: they see the unassigned tickets without a queue. */
  queued: 'queued',
  // These names are the visibility rule's audiences (ticketAudiences, viewerAudiences).
} as const;

/** Topic rooms: what a socket joined. */
export const TOPICS = {
  notification: 'notification',
  status: (status: TicketStatus) => `status:${status}`,
  chat: (ticketId: number) => `chat:${ticketId}`,
} as const;

const TOPIC_SEPARATOR = '@';
const topicRoom = (topic: string, audience: string) => `${topic}${TOPIC_SEPARATOR}${audience}`;

/** The rooms of those who may see a ticket: the visibility rule's audiences (@zapdesk/shared/visibility). */
export function ticketRooms(ticket: Pick<TTicket, 'userId' | 'queueId'>): string[] {
  return ticketAudiences(ticket);
}

/** The audience rooms of a user's sockets: everyone's, and the rule's audiences they belong to. */
export function audienceRooms(user: Pick<AuthUser, 'id' | 'profile' | 'permissions'>, queueIds: number[]): string[] {
  const managers = user.permissions.has('connectionsManage') ? [ROOMS.connectionManagers] : [];
  return [ROOMS.everyone, ...managers, ...viewerAudiences({ id: user.id, admin: isAdminProfile(user.profile), allQueues: user.permissions.has('allQueues'), queueIds })];
}

/** The rooms that carry `topics` to the sockets of `audience`. */
export function topicRooms(topics: string[], audience: string[]): string[] {
  return [...new Set(topics.flatMap((topic) => audience.map((a) => topicRoom(topic, a))))];
}

/** What a socket (local or on another node) is in, split into audience and topics. */
export function roomsOf(socket: { id: string; rooms: Set<string> }): { audience: string[]; topics: string[] } {
  const rooms = [...socket.rooms].filter((r) => r !== socket.id);
  return {
    audience: rooms.filter((r) => !r.includes(TOPIC_SEPARATOR)),
    topics: [...new Set(rooms.filter((r) => r.includes(TOPIC_SEPARATOR)).map((r) => r.slice(0, r.indexOf(TOPIC_SEPARATOR))))],
  };
}
