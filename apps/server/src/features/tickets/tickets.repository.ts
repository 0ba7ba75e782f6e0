/** Single tickets: reading them with their contact, queue, user and connection, and writing them. */
import { CHANNELS, TICKET_STATUSES, type TicketStatus } from '@zapdesk/shared/domain';
import type { TTicket } from '@zapdesk/shared/messaging';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { prepared } from '../../core/db/prepared.js';
import type { Database } from '../../core/db/schema.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { bool } from '../../core/db/sql-helpers.js';
import { readDetails } from '../contacts/contact-details.repository.js';

function asStatus(value: string): TicketStatus {
  return TICKET_STATUSES.find((s) => s === value) ?? 'pending';
}

const ticketColumns = [
  'tickets.id',
  'tickets.status',
  'tickets.userId',
  'tickets.queueId',
  'tickets.whatsappId',
  'tickets.contactId',
  'tickets.lastMessage',
  'tickets.previewMessage',
  'tickets.unreadMessages',
  'tickets.isGroup',
  'tickets.createdAt',
  'tickets.updatedAt',
] as const;

/**
 * Loads tickets with their contact, queue, user and connection, in the order of `ids`. Read
 * again only after a write (see memoUntilWrite, which gives each caller its own copy).
 */
export async function findTicketsByIds(db: Db, ids: number[]): Promise<TTicket[]> {
  if (ids.length === 0) return [];
  return memoUntilWrite(db, `tickets.byIds:${ids.join(',')}`, () => loadTicketsByIds(db, ids));
}

/** The tickets, read now (a list page that is itself memoised reads them through this). */
export async function loadTicketsByIds(db: Db, ids: number[]): Promise<TTicket[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tickets')
    .innerJoin('whatsapps', 'whatsapps.id', 'tickets.whatsappId')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .leftJoin('queues', 'queues.id', 'tickets.queueId')
    .leftJoin('users', 'users.id', 'tickets.userId')
    .leftJoin('chatbotSessions', 'chatbotSessions.ticketId', 'tickets.id')
    .select([
      ...ticketColumns,
      'whatsapps.name as whatsappName',
      'whatsapps.channel as whatsappChannel',
      'queues.name as queueName',
      'queues.color as queueColor',
      'users.name as userName',
      'chatbotSessions.status as botStatus',
      'contacts.name as contactName',
      'contacts.number as contactNumber',
      'contacts.email as contactEmail',
      'contacts.profilePicUrl as contactPicture',
      'contacts.isGroup as contactIsGroup',
      'contacts.createdAt as contactCreatedAt',
      'contacts.updatedAt as contactUpdatedAt',
    ])
    .where('tickets.id', 'in', ids)
    .execute();
  if (rows.length === 0) return [];
  const details = await readDetails(db, { contactIds: rows.map((r) => r.contactId), ticketIds: ids });
  const byId = new Map<number, TTicket>();
  for (const r of rows) {
    const contact = {
      id: r.contactId,
      name: r.contactName,
      number: r.contactNumber,
      email: r.contactEmail,
      profilePicUrl: r.contactPicture,
      isGroup: bool(r.contactIsGroup),
      createdAt: r.contactCreatedAt,
      updatedAt: r.contactUpdatedAt,
      extraInfo: details.extraInfo.get(r.contactId) ?? [],
      labels: details.contactLabels.get(r.contactId) ?? [],
    };
    byId.set(r.id, {
      id: r.id,
      status: asStatus(r.status),
      userId: r.userId,
      queueId: r.queueId,
      whatsappId: r.whatsappId,
      contactId: r.contactId,
      lastMessage: r.lastMessage,
      // The list line: the last message a person wrote, or the last one while there is none.
      preview: r.previewMessage || r.lastMessage,
      unreadMessages: r.unreadMessages,
      isGroup: bool(r.isGroup),
      chatbot: r.botStatus === 'active' && r.status === 'pending' && r.userId === null,
      contact,
      labels: details.ticketLabels.get(r.id) ?? [],
      queue: r.queueId !== null && r.queueName !== null && r.queueColor !== null ? { id: r.queueId, name: r.queueName, color: r.queueColor } : null,
      user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
      whatsapp: { id: r.whatsappId, name: r.whatsappName, channel: CHANNELS.find((c) => c === r.whatsappChannel) ?? 'whatsapp' },
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findTicketById(db: Db, id: number): Promise<TTicket | undefined> {
  const [ticket] = await findTicketsByIds(db, [id]);
  return ticket;
}

export async function findActiveTicketId(db: Db, contactId: number, whatsappId: number): Promise<number | undefined> {
  const row = await db.selectFrom('tickets').select('id').where('contactId', '=', contactId).where('whatsappId', '=', whatsappId).where(activeStatus).executeTakeFirst();
  return row?.id;
}

/**
 * 'open or pending' spelled with literals, as the partial unique index spells it: with
 * parameters SQLite cannot tell that the index covers the query, and the insert's ON CONFLICT
 * target does not match it at all.
 */
const activeStatus = sql<SqlBool>`${sql.ref('status')} in (${sql.lit('open')}, ${sql.lit('pending')})`;

/** The open or pending ticket of a contact on a connection, with what decides its routing. */
export async function findActiveTicket(db: Db, contactId: number, whatsappId: number): Promise<{ id: number; queueId: number | null; userId: number | null } | undefined> {
  return db.selectFrom('tickets').select(['id', 'queueId', 'userId']).where('contactId', '=', contactId).where('whatsappId', '=', whatsappId).where(activeStatus).executeTakeFirst();
}

export async function findLastClosedTicket(db: Db, contactId: number, whatsappId: number) {
  return db
    .selectFrom('tickets')
    .select(['id', 'queueId', 'updatedAt'])
    .where('contactId', '=', contactId)
    .where('whatsappId', '=', whatsappId)
    .where('status', '=', 'closed')
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The most recent ticket of a contact on a connection, whatever its status. */
export async function findLatestTicketId(db: Db, contactId: number, whatsappId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('tickets')
    .select('id')
    .where('contactId', '=', contactId)
    .where('whatsappId', '=', whatsappId)
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function insertTicket(
  db: Db,
  data: { contactId: number; whatsappId: number; isGroup: boolean; status: TicketStatus; userId: number | null; queueId?: number | null },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('tickets')
    .values({ ...data, isGroup: data.isGroup ? 1 : 0, queueId: data.queueId ?? null, lastMessage: '', unreadMessages: 0, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Inserts an active ticket unless the contact already has one on the connection (the partial
 * unique index decides, without an error that would abort a PostgreSQL transaction). Returns
 * the new id, or undefined when another writer got there first.
 */
export async function insertActiveTicketOnce(
  db: Db,
  data: { contactId: number; whatsappId: number; isGroup: boolean; status: 'open' | 'pending'; userId: number | null },
  now: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('tickets')
    .values({ ...data, isGroup: data.isGroup ? 1 : 0, queueId: null, lastMessage: '', unreadMessages: 0, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(['contactId', 'whatsappId']).where(activeStatus).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export type TicketPatch = Partial<{ status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number; lastMessage: string; unreadMessages: number; protocol: string | null }>;

/** A close is remembered for the reports (closedAt); a reopen forgets it. */
function closeMoment(status: TicketStatus | undefined, now: string): { closedAt?: string | null } {
  return status === undefined ? {} : { closedAt: status === 'closed' ? now : null };
}

export async function updateTicket(db: Db, id: number, patch: TicketPatch, now: string): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ ...patch, ...closeMoment(patch.status, now), updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/** The list line of a ticket after its latest message was edited: the ticket keeps its place (no updatedAt). */
export async function setLastMessage(db: Db, id: number, lastMessage: string): Promise<void> {
  // An edit comes from a person: the list line follows too.
  await db.updateTable('tickets').set({ lastMessage, previewMessage: lastMessage }).where('id', '=', id).execute();
}

/**
 * Records a new message on the ticket: last message text, and one more unread when it came in.
 * A message a person wrote (`byPerson`: not a greeting, menu, bot reply, farewell or notice) is
 * also the ticket's list line (previewMessage).
 */
export async function touchTicket(
  db: Db,
  id: number,
  options: { lastMessage: string; incoming: boolean; byPerson: boolean; queueId?: number | undefined; agentReply?: boolean },
  now: string,
): Promise<void> {
  const shape: TouchShape = { agentReply: options.agentReply === true, byPerson: options.byPerson, incoming: options.incoming };
  const key = `${+shape.agentReply}${+shape.byPerson}${+shape.incoming}`;
  let touch = touches.get(key);
  if (!touch) {
    touch = touchOfShape(shape);
    touches.set(key, touch);
  }
  if (options.queueId === undefined) await touch.keepingQueue(db, id, options.lastMessage, now);
  else await touch.settingQueue(db, id, options.lastMessage, now, options.queueId);
}

// Each message stored touches its ticket: one statement built once per shape of change (see
// core/db/prepared.ts).
type TouchShape = { agentReply: boolean; byPerson: boolean; incoming: boolean };
const touches = new Map<string, ReturnType<typeof touchOfShape>>();

function touchOfShape(shape: TouchShape) {
  const changes = (eb: ExpressionBuilder<Database, 'tickets'>, lastMessage: string, now: string) => ({
    lastMessage,
    // An agent's message written in the inbox: the first one is the ticket's first response (reports).
    ...(shape.agentReply ? { firstResponseAt: eb.fn.coalesce('firstResponseAt', sql<string>`${now}`) } : {}),
    ...(shape.byPerson ? { previewMessage: lastMessage } : {}),
    updatedAt: now,
    ...(shape.incoming ? { unreadMessages: eb('unreadMessages', '+', 1) } : {}),
  });
  return {
    keepingQueue: prepared((db: Db, id: number, lastMessage: string, now: string) =>
      db
        .updateTable('tickets')
        .set((eb) => changes(eb, lastMessage, now))
        .where('id', '=', id),
    ),
    settingQueue: prepared((db: Db, id: number, lastMessage: string, now: string, queueId: number) =>
      db
        .updateTable('tickets')
        .set((eb) => ({ ...changes(eb, lastMessage, now), queueId }))
        .where('id', '=', id),
    ),
  };
}

export async function userQueueIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('userQueues').select('queueId').where('userId', '=', userId).execute();
  return rows.map((r) => r.queueId);
}

export async function deleteTicket(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tickets').where('id', '=', id).execute();
}

/** Ids of the open and pending tickets within a scope (see listTickets). */

export async function closeTickets(db: Db, ids: number[], userId: number, now: string): Promise<void> {
  if (ids.length) await db.updateTable('tickets').set({ status: 'closed', userId, closedAt: now, updatedAt: now }).where('id', 'in', ids).execute();
}

/** Closes the open tickets idle since before `cutoff`, in one idempotent UPDATE; returns their ids. */
export async function closeTicketsIdleSince(db: Db, cutoff: string, now: string): Promise<number[]> {
  const rows = await db.updateTable('tickets').set({ status: 'closed', closedAt: now, updatedAt: now }).where('status', '=', 'open').where('updatedAt', '<', cutoff).returning('id').execute();
  return rows.map((r) => r.id);
}
