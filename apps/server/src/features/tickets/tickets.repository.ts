import { foldText, TICKET_STATUSES, type TicketStatus } from '@zapdesk/shared/domain';
import { visibilityClauses } from '@zapdesk/shared/visibility';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { Db, DbKind } from '../../core/db/database.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { bool, containsLike, pageWindow } from '../../core/db/sql-helpers.js';
import { findContactsByIds } from '../contacts/contacts.repository.js';

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

async function loadTicketsByIds(db: Db, ids: number[]): Promise<TTicket[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tickets')
    .innerJoin('whatsapps', 'whatsapps.id', 'tickets.whatsappId')
    .leftJoin('queues', 'queues.id', 'tickets.queueId')
    .leftJoin('users', 'users.id', 'tickets.userId')
    .select([...ticketColumns, 'whatsapps.name as whatsappName', 'queues.name as queueName', 'queues.color as queueColor', 'users.name as userName'])
    .where('tickets.id', 'in', ids)
    .execute();
  const contacts = await findContactsByIds(db, [...new Set(rows.map((r) => r.contactId))]);
  const byId = new Map<number, TTicket>();
  for (const r of rows) {
    const contact = contacts.get(r.contactId);
    if (!contact) continue;
    byId.set(r.id, {
      id: r.id,
      status: asStatus(r.status),
      userId: r.userId,
      queueId: r.queueId,
      whatsappId: r.whatsappId,
      contactId: r.contactId,
      lastMessage: r.lastMessage,
      unreadMessages: r.unreadMessages,
      isGroup: bool(r.isGroup),
      contact,
      queue: r.queueId !== null && r.queueName !== null && r.queueColor !== null ? { id: r.queueId, name: r.queueName, color: r.queueColor } : null,
      user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
      whatsapp: { id: r.whatsappId, name: r.whatsappName },
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
  const row = await db.selectFrom('tickets').select('id').where('contactId', '=', contactId).where('whatsappId', '=', whatsappId).where('status', 'in', ['open', 'pending']).executeTakeFirst();
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

export async function insertTicket(db: Db, data: { contactId: number; whatsappId: number; isGroup: boolean; status: TicketStatus; userId: number | null }, now: string): Promise<number> {
  const row = await db
    .insertInto('tickets')
    .values({ ...data, isGroup: data.isGroup ? 1 : 0, queueId: null, lastMessage: '', unreadMessages: 0, createdAt: now, updatedAt: now })
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

export type TicketPatch = Partial<{ status: TicketStatus; userId: number | null; queueId: number | null; whatsappId: number; lastMessage: string; unreadMessages: number }>;

export async function updateTicket(db: Db, id: number, patch: TicketPatch, now: string): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ ...patch, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/** The list line of a ticket after its latest message was edited: the ticket keeps its place (no updatedAt). */
export async function setLastMessage(db: Db, id: number, lastMessage: string): Promise<void> {
  await db.updateTable('tickets').set({ lastMessage }).where('id', '=', id).execute();
}

/** Records a new message on the ticket: last message text, and one more unread when it came in. */
export async function touchTicket(db: Db, id: number, options: { lastMessage: string; incoming: boolean; queueId?: number | undefined }, now: string): Promise<void> {
  await db
    .updateTable('tickets')
    .set((eb) => ({
      lastMessage: options.lastMessage,
      updatedAt: now,
      ...(options.incoming ? { unreadMessages: eb('unreadMessages', '+', 1) } : {}),
      ...(options.queueId === undefined ? {} : { queueId: options.queueId }),
    }))
    .where('id', '=', id)
    .execute();
}

export type TicketScope = { userId: number; admin: boolean; showAll: boolean; queueIds: number[] };

export type TicketFilters = {
  status?: TicketStatus | undefined;
  searchParam?: string;
  /** Narrows to these queues (within what the user may see); tickets without a queue stay. */
  queueIds?: number[] | undefined;
  withUnreadMessages?: boolean;
  isGroup?: boolean | undefined;
};

/** A ticket column, or (`bare`) the same value hidden from the planner so it picks no index on it. */
type ColumnRef = (name: 'status' | 'queueId' | 'userId' | 'isGroup' | 'unreadMessages') => RawBuilder<unknown>;
const indexed: ColumnRef = (name) => sql.ref(name);
const bare: ColumnRef = (name) => sql`+${sql.ref(name)}`;

/**
 * The visibility rule (@zapdesk/shared/visibility) as SQL: a ticket matches when any of the
 * viewer's clauses does. Lists and counts use it; single tickets and live events use the same
 * clauses through the shared predicate, and a table test keeps the two in step.
 */
export function visibleTo<O>(query: SelectQueryBuilder<Database, 'tickets', O>, scope: TicketScope, col: ColumnRef = indexed): SelectQueryBuilder<Database, 'tickets', O> {
  const clauses = visibilityClauses({ id: scope.userId, admin: scope.admin, queueIds: scope.queueIds }, { all: scope.showAll });
  if (clauses.some((c) => c.kind === 'everything')) return query;
  return query.where((eb) =>
    eb.or(
      clauses.map((clause) => {
        switch (clause.kind) {
          case 'assignedTo':
            return eb(col('userId'), '=', clause.userId);
          case 'unassignedIn':
            return eb.and([eb(col('userId'), 'is', null), eb(col('queueId'), 'in', [...clause.queueIds])]);
          case 'unassignedWithoutQueue':
            return eb.and([eb(col('userId'), 'is', null), eb(col('queueId'), 'is', null)]);
          case 'everything':
            return eb.lit(true);
        }
      }),
    ),
  );
}

/**
 * The contacts a plain user may see, as a condition on `contacts.id`: a contact with no ticket at
 * all (the team's address book), or with a ticket the user may see. Admins see every contact.
 */
export function contactVisibleTo(db: Db, scope: TicketScope): RawBuilder<SqlBool> | undefined {
  if (scope.admin) return undefined;
  const anyTicket = db.selectFrom('tickets').select(sql.lit(1).as('one')).where(sql.ref('tickets.contactId'), '=', sql.ref('contacts.id'));
  const visible = visibleTo(anyTicket, { ...scope, showAll: false });
  return sql<SqlBool>`(not exists ${anyTicket} or exists ${visible})`;
}

/** Who holds the tickets of a contact (all statuses): the audience of a change to that contact. */
export async function ticketHoldersOfContact(db: Db, contactId: number): Promise<{ userId: number | null; queueId: number | null }[]> {
  return db.selectFrom('tickets').select(['userId', 'queueId']).distinct().where('contactId', '=', contactId).execute();
}

/** Words of a search as a prefix query: 'joão sil' finds 'João Silva'. */
function searchWords(term: string): string[] {
  return foldText(term).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Tickets with a (not deleted) message containing every word, through the full-text index. */
function ticketsWithMessageWords(db: Db, kind: DbKind, words: string[]) {
  if (kind === 'postgres') {
    const query = words.map((w) => `${w}:*`).join(' & ');
    return db
      .selectFrom('messages')
      .select('messages.ticketId as id')
      .where('isDeleted', '=', 0)
      .where(sql<SqlBool>`to_tsvector('simple', ${sql.ref('searchText')}) @@ to_tsquery('simple', ${query})`);
  }
  const query = words.map((w) => `"${w}"*`).join(' ');
  return db
    .selectFrom('messages')
    .select('messages.ticketId as id')
    .where('isDeleted', '=', 0)
    .where('messages.id', 'in', sql<number>`(select rowid from messages_fts where messages_fts match ${query})`);
}

/**
 * The tickets a user may see: admins with showAll everything; otherwise tickets of their
 * queues (or without a queue), unassigned or their own. Filters narrow that, never widen it.
 */
export async function listTickets(db: Db, kind: DbKind, options: { scope: TicketScope; filters: TicketFilters; pageNumber: number }) {
  const { scope, filters } = options;
  const words = searchWords(filters.searchParam ?? '');
  // A search starts from its candidates (a few thousand tickets), not from an index over every
  // ticket of a status or of unassigned ones probed against them: on SQLite the filters are left
  // bare (PostgreSQL's planner weighs that itself, and has no unary + for text).
  const col = words.length && kind === 'sqlite' ? bare : indexed;
  let base = db.selectFrom('tickets');
  if (filters.status) base = base.where(col('status'), '=', filters.status);
  base = visibleTo(base, scope, col);
  if (filters.queueIds) {
    const wanted = filters.queueIds;
    // The queue filter narrows the queues' lists; one's own tickets stay whatever it says.
    base = base.where((eb) => eb.or([eb(col('queueId'), 'is', null), eb(col('userId'), '=', scope.userId), ...(wanted.length ? [eb(col('queueId'), 'in', wanted)] : [])]));
  }
  // A literal, as the partial index on unread tickets spells it, so both planners match it.
  if (filters.withUnreadMessages) base = base.where(col('unreadMessages'), '>', sql.lit(0));
  if (filters.isGroup !== undefined) base = base.where(col('isGroup'), '=', filters.isGroup ? 1 : 0);
  if (words.length) {
    const folded = foldText(filters.searchParam ?? '').trim();
    // One set of candidates (tickets of matching contacts, plus tickets with matching messages),
    // built once, rather than an OR probed for every ticket of the list.
    base = base.where('id', 'in', (eb) =>
      eb
        .selectFrom('tickets as matched')
        .select('matched.id')
        .where(
          'matched.contactId',
          'in',
          eb
            .selectFrom('contacts')
            .select('contacts.id')
            .where(containsLike(sql.ref('contacts.searchText'), folded)),
        )
        .unionAll(ticketsWithMessageWords(db, kind, words)),
    );
  }
  const { limit, offset } = pageWindow(options.pageNumber);
  // A page (a count over 100,000 tickets) is read again only after a write (see memoUntilWrite):
  // agents' screens ask for the same tabs over and over.
  return memoUntilWrite(db, `tickets.list:${JSON.stringify([scope, filters, options.pageNumber])}`, async () => {
    let count: number;
    let ids: number[];
    if (words.length) {
      // A search's candidates are gathered once for the page and its count.
      const rows = await base
        .select((eb) => ['id', eb.fn.countAll<number>().over().as('n')])
        .orderBy('updatedAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      ids = rows.map((r) => r.id);
      count = rows.length ? Number(rows[0]?.n) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    } else {
      const [countRow, idRows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        base.select('id').orderBy('updatedAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      ]);
      count = Number(countRow.n);
      ids = idRows.map((r) => r.id);
    }
    const tickets = await loadTicketsByIds(db, ids);
    return { tickets, count, hasMore: count > offset + tickets.length };
  });
}

export async function userQueueIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('userQueues').select('queueId').where('userId', '=', userId).execute();
  return rows.map((r) => r.queueId);
}

export async function deleteTicket(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tickets').where('id', '=', id).execute();
}

/** Ids of the open and pending tickets within a scope (see listTickets). */
export async function visibleActiveTicketIds(db: Db, scope: TicketScope): Promise<number[]> {
  const q = visibleTo(db.selectFrom('tickets').select('id').where('status', 'in', ['open', 'pending']), scope);
  return (await q.execute()).map((r) => r.id);
}

export async function closeTickets(db: Db, ids: number[], userId: number, now: string): Promise<void> {
  if (ids.length) await db.updateTable('tickets').set({ status: 'closed', userId, updatedAt: now }).where('id', 'in', ids).execute();
}

/** Closes the open tickets idle since before `cutoff`, in one idempotent UPDATE; returns their ids. */
export async function closeTicketsIdleSince(db: Db, cutoff: string, now: string): Promise<number[]> {
  const rows = await db.updateTable('tickets').set({ status: 'closed', updatedAt: now }).where('status', '=', 'open').where('updatedAt', '<', cutoff).returning('id').execute();
  return rows.map((r) => r.id);
}
