/** The SQL of notes and mentions: a note is a `messages` row with isNote = 1 (migration 034). */
import { randomUUID } from 'node:crypto';
import { foldText } from '@zapdesk/shared/domain';
import type { TMention } from '@zapdesk/shared/notes';
import type { Db } from '../../core/db/database.js';
import { pageWindow } from '../../core/db/sql-helpers.js';

/**
 * Stores a note in a ticket's chat. Its provider id is ours (`note:<uuid>`), never a provider's,
 * so no ack, edit or deletion from the phone can match it; it is read, sent and no reply.
 */
export async function insertNote(db: Db, input: { ticketId: number; whatsappId: number; userId: number; body: string }, now: string): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values({
      ticketId: input.ticketId,
      whatsappId: input.whatsappId,
      providerId: `note:${randomUUID()}`,
      contactId: null,
      body: input.body,
      searchText: foldText(input.body),
      fromMe: 1,
      read: 1,
      ack: 0,
      mediaType: null,
      mediaPath: null,
      quotedMsgId: null,
      isDeleted: 0,
      isNote: 1,
      userId: input.userId,
      sendStatus: 'sent',
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The ids among `ids` of users that exist. */
export async function existingUserIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

/** User names by id (a note's author). */
export async function userNamesByIds(db: Db, ids: number[]): Promise<Map<number, { id: number; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((u) => [u.id, u]));
}

export async function insertMentions(db: Db, input: { messageId: number; ticketId: number; byUserId: number; userIds: number[] }, now: string): Promise<number[]> {
  if (input.userIds.length === 0) return [];
  const rows = await db
    .insertInto('mentions')
    .values(input.userIds.map((userId) => ({ messageId: input.messageId, ticketId: input.ticketId, userId, byUserId: input.byUserId, createdAt: now, readAt: null, closedAt: null })))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

function mentionsQuery(db: Db) {
  return db
    .selectFrom('mentions')
    .innerJoin('messages', 'messages.id', 'mentions.messageId')
    .innerJoin('tickets', 'tickets.id', 'mentions.ticketId')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .leftJoin('users', 'users.id', 'mentions.byUserId')
    .select([
      'mentions.id',
      'mentions.ticketId',
      'mentions.messageId',
      'mentions.userId',
      'mentions.createdAt',
      'mentions.readAt',
      'mentions.closedAt',
      'messages.body',
      'messages.isDeleted',
      'tickets.status',
      'contacts.name as contactName',
      'contacts.profilePicUrl',
      'users.id as byId',
      'users.name as byName',
    ]);
}

type MentionRecord = Awaited<ReturnType<ReturnType<typeof mentionsQuery>['executeTakeFirstOrThrow']>>;

function toMention(r: MentionRecord): TMention & { userId: number } {
  return {
    id: r.id,
    userId: r.userId,
    ticketId: r.ticketId,
    messageId: r.messageId,
    body: r.isDeleted ? '' : r.body,
    by: r.byId !== null && r.byName !== null ? { id: r.byId, name: r.byName } : null,
    contact: { name: r.contactName, profilePicUrl: r.profilePicUrl ?? '' },
    open: r.closedAt === null && r.status !== 'closed',
    createdAt: r.createdAt,
    readAt: r.readAt,
    closedAt: r.closedAt,
  };
}

export async function findMentionsByIds(db: Db, ids: number[]): Promise<(TMention & { userId: number })[]> {
  if (ids.length === 0) return [];
  return (await mentionsQuery(db).where('mentions.id', 'in', ids).orderBy('mentions.id').execute()).map(toMention);
}

/** Open: not done and the ticket not resolved (as mention-access.ts); done: everything else. */
function openCondition(query: ReturnType<typeof mentionsQuery>, state: 'open' | 'done') {
  return state === 'open'
    ? query.where('mentions.closedAt', 'is', null).where('tickets.status', '!=', 'closed')
    : query.where((eb) => eb.or([eb('mentions.closedAt', 'is not', null), eb('tickets.status', '=', 'closed')]));
}

/** A user's mentions, newest first, a page at a time; and how many open ones they have not opened yet. */
export async function listMentionsOfUser(db: Db, userId: number, options: { state: 'open' | 'done'; pageNumber: number; pageSize: number }) {
  const { limit, offset } = pageWindow(options.pageNumber, options.pageSize);
  const mine = openCondition(mentionsQuery(db).where('mentions.userId', '=', userId), options.state);
  const [rows, total, unread] = await Promise.all([
    mine.orderBy('mentions.createdAt', 'desc').orderBy('mentions.id', 'desc').limit(limit).offset(offset).execute(),
    mine
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    openCondition(mentionsQuery(db).where('mentions.userId', '=', userId), 'open')
      .where('mentions.readAt', 'is', null)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const count = Number(total.n);
  return { mentions: rows.map(toMention), count, unread: Number(unread.n), hasMore: count > offset + rows.length };
}

/** Sets readAt (first time only) or closedAt on a user's own mention; false when it is not theirs. */
export async function markMention(db: Db, id: number, userId: number, field: 'readAt' | 'closedAt', now: string): Promise<boolean> {
  const found = await db.selectFrom('mentions').select('id').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  if (!found) return false;
  await db
    .updateTable('mentions')
    .set(field === 'readAt' ? { readAt: now } : { closedAt: now })
    .where('id', '=', id)
    .where(field, 'is', null)
    .execute();
  return true;
}

/** Ends the open mentions of resolved tickets; returns the ended ones' ids. */
export async function closeMentionsOfTicket(db: Db, ticketId: number, now: string): Promise<number[]> {
  const rows = await db.updateTable('mentions').set({ closedAt: now }).where('ticketId', '=', ticketId).where('closedAt', 'is', null).returning('id').execute();
  return rows.map((r) => r.id);
}
