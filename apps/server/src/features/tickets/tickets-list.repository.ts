/**
 * The ticket lists: the visibility rule as SQL, the lists' filters and search, and the ids a
 * user may act on in bulk. Single tickets and their writes are in tickets.repository.ts.
 */
import { foldText, type TicketStatus } from '@zapdesk/shared/domain';
import { searchWords, snippetAround } from '@zapdesk/shared/text-match';
import { visibilityClauses } from '@zapdesk/shared/visibility';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { containsLike, pageWindow } from '../../core/db/sql-helpers.js';
import { ticketHasAnyLabel } from '../labels/labels.repository.js';
import { loadTicketsByIds } from './tickets.repository.js';
import { isTab, tabCount, tabPageIds } from './tickets-tab.repository.js';

/** `allQueues`: the user may turn 'All' on (admins, the allQueues permission); `showAll`: they did. */
export type TicketScope = { userId: number; admin: boolean; allQueues: boolean; showAll: boolean; queueIds: number[] };

export type TicketFilters = {
  status?: TicketStatus | undefined;
  searchParam?: string;
  /** Narrows to these queues (within what the user may see); tickets without a queue stay. */
  queueIds?: number[] | undefined;
  withUnreadMessages?: boolean;
  isGroup?: boolean | undefined;
  /** Tickets carrying any of these labels. */
  labelIds?: number[] | undefined;
  /** Created within [from, before). */
  createdOn?: { from: string; before: string } | undefined;
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
  const clauses = visibilityClauses({ id: scope.userId, admin: scope.admin, allQueues: scope.allQueues, queueIds: scope.queueIds }, { all: scope.showAll });
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

/** PostgreSQL: tickets with a (not deleted) message containing every word, through the GIN index. */
function ticketsWithMessageWords(db: Db, words: string[]) {
  const query = words.map((w) => `${w}:*`).join(' & ');
  return db
    .selectFrom('messages')
    .select('messages.ticketId as id')
    .where('isDeleted', '=', 0)
    .where(sql<SqlBool>`to_tsvector('simple', ${sql.ref('searchText')}) @@ to_tsquery('simple', ${query})`);
}

/**
 * SQLite: the same, from the full-text index alone: its row ids carry the ticket (migration 018),
 * and it holds only messages that are not deleted.
 */
function sqliteTicketsWithMessageWords(words: string[]): RawBuilder<number> {
  const query = words.map((w) => `"${w}"*`).join(' ');
  return sql<number>`select rowid >> 32 from message_words where message_words match ${query}`;
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
  if (filters.labelIds?.length) base = base.where(ticketHasAnyLabel('tickets.id', filters.labelIds));
  if (filters.createdOn) base = base.where('tickets.createdAt', '>=', filters.createdOn.from).where('tickets.createdAt', '<', filters.createdOn.before);
  if (words.length) {
    const folded = foldText(filters.searchParam ?? '').trim();
    // One set of candidates (tickets of matching contacts, plus tickets with matching messages),
    // built once, rather than an OR probed for every ticket of the list.
    const matchingContacts = db
      .selectFrom('contacts')
      .select('contacts.id')
      .where(containsLike(sql.ref('contacts.searchText'), folded));
    if (kind === 'postgres') {
      // Each set computed once, as an array, and looked up through the primary key and the
      // contact index: left to itself, the planner underestimates a common word's thousands of
      // candidates and probes them for every visible ticket (16 s for 'joao' on 100,000 tickets).
      const candidates = db
        .selectFrom('tickets as matched')
        .select('matched.id')
        .where(sql<SqlBool>`${sql.ref('matched.contactId')} = any(array(${matchingContacts}))`)
        .unionAll(ticketsWithMessageWords(db, words));
      base = base.where(sql<SqlBool>`${sql.ref('tickets.id')} = any(array(${candidates}))`);
    } else {
      base = base.where(
        sql<SqlBool>`${sql.ref('tickets.id')} in (select matched.id from tickets as matched where matched."contactId" in ${matchingContacts} union all ${sqliteTicketsWithMessageWords(words)})`,
      );
    }
  }
  const { limit, offset } = pageWindow(options.pageNumber);
  // Read now: the tickets service memoises the page with the user's queues (see listTickets there).
  let count: number;
  let ids: number[];
  /** Whether a page follows: read from the page itself by a tab, from the exact count otherwise. */
  let more: boolean | undefined;
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
  } else if (isTab(filters)) {
    // A tab: page and count bounded whatever the number of tickets (see tickets-tab.repository.ts).
    const [bounded, tabIds] = await Promise.all([tabCount(db, scope, filters, base), tabPageIds(db, scope, filters, { limit, offset })]);
    const pageIds =
      tabIds ??
      (
        await base
          .select('id')
          .orderBy('updatedAt', 'desc')
          .orderBy('id', 'desc')
          .limit(limit + 1)
          .offset(offset)
          .execute()
      ).map((r) => r.id);
    more = pageIds.length > limit;
    ids = pageIds.slice(0, limit);
    count = Math.max(bounded, offset + ids.length);
  } else {
    const [countRow, idRows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base.select('id').orderBy('updatedAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    ]);
    count = Number(countRow.n);
    ids = idRows.map((r) => r.id);
  }
  const tickets = await loadTicketsByIds(db, ids);
  if (words.length) {
    // A search result shows the words it matched in context: the newest matching message of each ticket on the page.
    const bodies = await matchingMessageBodies(db, kind, ids, words);
    for (const ticket of tickets) {
      const body = bodies.get(ticket.id);
      if (body) ticket.match = snippetAround(body, words);
    }
  }
  return { tickets, count, hasMore: more ?? count > offset + tickets.length };
}

/**
 * The newest message of each of these tickets (a page) that holds every word, through the same
 * indexes as the search: PostgreSQL's GIN index within the tickets' messages, SQLite's full-text
 * index by each ticket's row id range (see migration 018).
 */
async function matchingMessageBodies(db: Db, kind: DbKind, ticketIds: number[], words: string[]): Promise<Map<number, string>> {
  if (ticketIds.length === 0) return new Map();
  if (kind === 'postgres') {
    const query = words.map((w) => `${w}:*`).join(' & ');
    const rows = await db
      .selectFrom('messages')
      .distinctOn('ticketId')
      .select(['ticketId', 'body'])
      .where('ticketId', 'in', ticketIds)
      .where('isDeleted', '=', 0)
      .where(sql<SqlBool>`to_tsvector('simple', ${sql.ref('searchText')}) @@ to_tsquery('simple', ${query})`)
      .orderBy('ticketId')
      .orderBy('id', 'desc')
      .execute();
    return new Map(rows.map((r) => [r.ticketId, r.body]));
  }
  const query = words.map((w) => `"${w}"*`).join(' ');
  const found = await Promise.all(
    ticketIds.map(async (ticketId) => {
      const row = await sql<{ id: number }>`select rowid & 4294967295 as id from message_words
        where message_words match ${query} and rowid between ${ticketId * 2 ** 32} and ${ticketId * 2 ** 32 + 2 ** 32 - 1} order by rowid desc limit 1`.execute(db);
      return row.rows[0]?.id;
    }),
  );
  const messageIds = found.filter((id): id is number => id !== undefined);
  if (messageIds.length === 0) return new Map();
  const rows = await db.selectFrom('messages').select(['ticketId', 'body']).where('id', 'in', messageIds).execute();
  return new Map(rows.map((r) => [r.ticketId, r.body]));
}

/** The open and pending tickets a user may see, with who holds each. */
export async function visibleActiveTickets(db: Db, scope: TicketScope): Promise<{ id: number; userId: number | null; status: string }[]> {
  return visibleTo(db.selectFrom('tickets').select(['id', 'userId', 'status']).where('status', 'in', ['open', 'pending']), scope).execute();
}
