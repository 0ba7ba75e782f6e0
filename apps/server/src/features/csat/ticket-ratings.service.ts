/** A ticket's satisfaction questions and answers, as the ticket's screen shows them. */
import { CSAT_ANSWER_WINDOW_MS, type TTicketRating } from '@zapdesk/shared/csat';
import type { AppContext } from '../../core/context.js';
import { getVisibleTicket } from '../tickets/tickets.service.js';
import type { AuthUser } from '../users/users.repository.js';
import * as repo from './csat.repository.js';

export function presentRating(row: repo.RatingRow, now = Date.now()): TTicketRating {
  const expired = row.score === null && (row.expiredAt !== null || now - Date.parse(row.askedAt) >= CSAT_ANSWER_WINDOW_MS);
  return {
    id: row.id,
    ticketId: row.ticketId,
    userId: row.userId,
    askedAt: row.askedAt,
    score: row.score,
    answeredAt: row.answeredAt,
    comment: row.comment,
    commentAt: row.commentAt,
    state: row.score !== null ? 'answered' : expired ? 'expired' : 'waiting',
  };
}

/** A ticket's questions and answers, oldest first, for whoever may see the ticket. */
export async function listTicketRatings(ctx: AppContext, actor: AuthUser, ticketId: number): Promise<TTicketRating[]> {
  await getVisibleTicket(ctx, actor, ticketId);
  return (await repo.listTicketRatings(ctx.db, ticketId)).map((row) => presentRating(row));
}
