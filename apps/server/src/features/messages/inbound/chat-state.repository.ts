/**
 * What the pipeline reads of a chat before writing its message, in one statement: the contact,
 * its open or pending ticket on the connection (with what decides its routing) and the id of its
 * latest satisfaction question there. Three look-ups otherwise, each a round trip per message.
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';

export type ActiveTicket = { id: number; queueId: number | null; userId: number | null };
export type ChatState = { id: number; name: string; active: ActiveTicket | null; latestRatingId: number | null };

// Built once (see core/db/prepared.ts): the pipeline reads it for every message.
const chatStateQuery = prepared((db: Db, number: string, whatsappId: number) =>
  db
    .selectFrom('contacts')
    // At most one: the partial unique index on (contactId, whatsappId) where open or pending,
    // whose condition is spelled here as it is there, with literals.
    .leftJoin('tickets', (join) =>
      join
        .onRef('tickets.contactId', '=', 'contacts.id')
        .on('tickets.whatsappId', '=', whatsappId)
        .on(sql<SqlBool>`${sql.ref('tickets.status')} in (${sql.lit('open')}, ${sql.lit('pending')})`),
    )
    .select(['contacts.id', 'contacts.name', 'tickets.id as ticketId', 'tickets.queueId', 'tickets.userId'])
    .select((eb) =>
      eb
        .selectFrom('ticketRatings')
        .select('ticketRatings.id')
        .whereRef('ticketRatings.contactId', '=', 'contacts.id')
        .where('ticketRatings.whatsappId', '=', whatsappId)
        .orderBy('ticketRatings.askedAt', 'desc')
        .orderBy('ticketRatings.id', 'desc')
        .limit(1)
        .as('latestRatingId'),
    )
    .where('contacts.number', '=', number),
);

export async function readChatState(db: Db, number: string, whatsappId: number): Promise<ChatState | undefined> {
  const [row] = (await chatStateQuery(db, number, whatsappId)).rows;
  if (!row) return undefined;
  const { ticketId, queueId, userId, latestRatingId, ...contact } = row;
  return { ...contact, active: ticketId === null ? null : { id: ticketId, queueId, userId }, latestRatingId: latestRatingId ?? null };
}
