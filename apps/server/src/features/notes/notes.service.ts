/**
 * Private notes and mentions: writing a note in a ticket's chat (never handed to a channel),
 * telling the colleagues it mentions, and their list of mentions (read, done).
 */
import type { TMessage } from '@zapdesk/shared/messaging';
import { MENTIONS_PAGE_SIZE, type TMention, type TMentionListQuery, type TNoteCreate } from '@zapdesk/shared/notes';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { presentMessages } from '../messages/messages.presenter.js';
import { findMessagesByIds } from '../messages/messages.repository.js';
import { getReadableTicket } from '../tickets/tickets.service.js';
import type { AuthUser } from '../users/users.repository.js';
import * as repo from './notes.repository.js';

function publishMentions(ctx: AppContext, mentions: (TMention & { userId: number })[], created: boolean): void {
  for (const { userId, ...mention } of mentions) ctx.events.publish('mention.saved', { userId, mention, created });
}

/** A note in a ticket's chat, by whoever may read the ticket (a mentioned colleague too); any status. */
export async function createNote(ctx: AppContext, actor: AuthUser, ticketId: number, input: TNoteCreate): Promise<TMessage> {
  const ticket = await getReadableTicket(ctx, actor, ticketId);
  const wanted = [...new Set(input.mentionUserIds)];
  const existing = await repo.existingUserIds(ctx.db, wanted);
  if (existing.length !== wanted.length) throw new AppError('ERR_VALIDATION', { message: 'A mentioned user does not exist.', fields: { mentionUserIds: 'INVALID' } });
  const now = nowIso();
  const { messageId, mentionIds } = await ctx.db.transaction().execute(async (trx) => {
    const id = await repo.insertNote(trx, { ticketId: ticket.id, whatsappId: ticket.whatsappId, userId: actor.id, body: input.body }, now);
    // Mentioning oneself tells nobody.
    const ids = await repo.insertMentions(trx, { messageId: id, ticketId: ticket.id, byUserId: actor.id, userIds: existing.filter((u) => u !== actor.id) }, now);
    return { messageId: id, mentionIds: ids };
  });
  const [message] = await presentMessages(ctx, await findMessagesByIds(ctx.db, [messageId]));
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  // The ticket itself is unchanged: a note is never its last message nor unread.
  ctx.events.publish('message.saved', { message, ticket, created: true });
  publishMentions(ctx, await repo.findMentionsByIds(ctx.db, mentionIds), true);
  return message;
}

export async function listMentions(ctx: AppContext, actor: AuthUser, query: TMentionListQuery) {
  const page = await repo.listMentionsOfUser(ctx.db, actor.id, { state: query.state, pageNumber: query.pageNumber, pageSize: MENTIONS_PAGE_SIZE });
  return { ...page, mentions: page.mentions.map(({ userId: _userId, ...mention }) => mention) };
}

/** 'read' when the colleague opens it; 'done' ends it, and with it their access to the ticket. */
export async function markMention(ctx: AppContext, actor: AuthUser, id: number, what: 'read' | 'done'): Promise<TMention> {
  if (!(await repo.markMention(ctx.db, id, actor.id, what === 'read' ? 'readAt' : 'closedAt', nowIso()))) throw new AppError('ERR_NO_MENTION_FOUND');
  const found = await repo.findMentionsByIds(ctx.db, [id]);
  publishMentions(ctx, found, false);
  const [first] = found;
  if (!first) throw new AppError('ERR_NO_MENTION_FOUND');
  const { userId: _userId, ...mention } = first;
  return mention;
}

/** A resolved ticket ends its open mentions (also when it is reopened later); their colleagues' lists follow live. */
export function endMentionsOnResolve(ctx: AppContext, onError: (error: unknown) => void): () => void {
  return ctx.events.subscribe('ticket.saved', ({ ticket }) => {
    if (ticket.status !== 'closed') return;
    void repo
      .closeMentionsOfTicket(ctx.db, ticket.id, nowIso())
      .then(async (ids) => publishMentions(ctx, await repo.findMentionsByIds(ctx.db, ids), false))
      .catch(onError);
  });
}
