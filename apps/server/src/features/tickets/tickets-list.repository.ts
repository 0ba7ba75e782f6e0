/**
 * The ticket lists: the visibility rule as SQL, the lists' filters (a search is answered by
 * tickets-search.repository.ts), and the ids a user may act on in bulk. Single tickets and their
 * writes are in tickets.repository.ts.
 */
import type { TicketStatus } from '@zapdesk/shared/domain';
import { visibilityClauses } from '@zapdesk/shared/visibility';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { pageWindow } from '../../core/db/sql-helpers.js';
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
export type ColumnRef = (name: 'status' | 'queueId' | 'userId' | 'isGroup' | 'unreadMessages') => RawBuilder<unknown>;
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

/** A ticket column, or (`bare`) the same value hidden from the planner; see ColumnRef. */
export const columnRefs = { indexed, bare } as const;

/**
 * The tickets a user may see, narrowed by the filters (all but the search, which
 * tickets-search.repository.ts adds): filters narrow what the user may see, never widen it.
 */
export function filteredTickets(db: Db, scope: TicketScope, filters: TicketFilters, col: ColumnRef = indexed): SelectQueryBuilder<Database, 'tickets', object> {
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
  return base;
}

/**
 * The tickets a user may see: admins with showAll everything; otherwise tickets of their
 * queues (or without a queue), unassigned or their own. Filters narrow that, never widen it.
 * A search (`searchParam`) is answered by searchTickets (tickets-search.repository.ts).
 */
export async function listTickets(db: Db, _kind: DbKind, options: { scope: TicketScope; filters: TicketFilters; pageNumber: number }) {
  const base = filteredTickets(db, options.scope, options.filters);
  const { scope, filters } = options;
  const { limit, offset } = pageWindow(options.pageNumber);
  // Read now: the tickets service memoises the page with the user's queues (see listTickets there).
  let count: number;
  let ids: number[];
  /** Whether a page follows: read from the page itself by a tab, from the exact count otherwise. */
  let more: boolean | undefined;
  if (isTab(filters)) {
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
  return { tickets, count, hasMore: more ?? count > offset + tickets.length };
}

/** The open and pending tickets a user may see, with who holds each. */
export async function visibleActiveTickets(db: Db, scope: TicketScope): Promise<{ id: number; userId: number | null; status: string }[]> {
  return visibleTo(db.selectFrom('tickets').select(['id', 'userId', 'status']).where('status', 'in', ['open', 'pending']), scope).execute();
}
