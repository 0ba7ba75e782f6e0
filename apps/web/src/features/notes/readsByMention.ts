import { isAdminProfile } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TUser } from '@zapdesk/shared/schemas';
import { canSeeTicket } from '@zapdesk/shared/visibility';
import { useAuth } from '../../core/auth/AuthProvider';

/**
 * Whether the user has this ticket open only through a mention (outside what the visibility rule
 * lets them see): they read it and write notes; replying and the ticket's actions are not theirs.
 */
export function readsByMention(user: TUser | null, allQueues: boolean, ticket: Pick<TTicket, 'userId' | 'queueId'> | undefined): boolean {
  if (!user || !ticket) return false;
  return !canSeeTicket({ id: user.id, admin: isAdminProfile(user.profile), allQueues, queueIds: user.queues.map((q) => q.id) }, ticket, { all: true });
}

export function useReadsByMention(ticket: Pick<TTicket, 'userId' | 'queueId'> | undefined): boolean {
  const { user, can } = useAuth();
  return readsByMention(user, can('allQueues'), ticket);
}
