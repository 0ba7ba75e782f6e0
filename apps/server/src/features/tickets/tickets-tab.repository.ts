/**
 * A ticket tab (a status, groups or not, unread or not, the queue filter) as the lists ask for it
 * with no search, labels or day: its page and its count at a cost that does not grow with the
 * number of tickets.
 *
 * - The page: a viewer who does not see everything sees tickets in a few ways (assigned to them,
 *   unassigned in one of their queues, unassigned without a queue). Each way, for each value of
 *   isGroup and each queue, is one range of the index `(status, isGroup, userId, queueId,
 *   updatedAt, id)` (migration 045) already in the page's order: the first tickets of each range
 *   are merged and the page taken from them, so a page reads at most (ranges × page end) index
 *   entries. Walking a status's tickets in order until a page of visible ones turned up read them
 *   all when fewer were visible (an admin's bell over 200,000 open tickets at 10× the data).
 * - The count is exact up to TAB_COUNT_CAP and says TAB_COUNT_CAP beyond it ("that many or
 *   more"): the tab badges show at most '999+' and the bell '99+', so a larger count is never
 *   shown, and counting the 700,000 tickets of the Resolved tab cost tens of milliseconds after
 *   every write. `hasMore` is read from the page itself (one ticket more than the page).
 */
import type { TicketStatus } from '@zapdesk/shared/domain';
import { visibilityClauses } from '@zapdesk/shared/visibility';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { TicketFilters, TicketScope } from './tickets-list.repository.js';

/** A tab's count says this when it holds this many tickets or more. */
export const TAB_COUNT_CAP = 1000;
/** Beyond this many ranges (a viewer in very many queues) the page is read as one query instead. */
const MAX_RANGES = 64;

/** One range: a status, an assignee (or none) and a queue (or none), groups or not (undefined: both). */
type Range = { isGroup: 0 | 1 | undefined; userId: number | null; queueId: number | null };

/** The filters a tab may have: anything else (a search, labels, a day) is read by the general list. */
export function isTab(filters: TicketFilters): filters is TicketFilters & { status: TicketStatus } {
  return filters.status !== undefined && !filters.searchParam?.trim() && !filters.labelIds?.length && !filters.createdOn;
}

/**
 * The ranges a restricted viewer's tab reads, or undefined when the viewer sees everything (the
 * page is then one ordered walk of the status index that nearly every ticket passes). One's own
 * tickets are read queue by queue (`queueIds`: every queue of the team, and none); `bothGroups`:
 * a range for groups and one for the rest when the tab takes both.
 */
function rangesOf(scope: TicketScope, filters: TicketFilters, queueIds: readonly number[], bothGroups: boolean): Range[] | undefined {
  const clauses = visibilityClauses({ id: scope.userId, admin: scope.admin, allQueues: scope.allQueues, queueIds: scope.queueIds }, { all: scope.showAll });
  if (clauses.some((c) => c.kind === 'everything')) return undefined;
  const wanted = filters.queueIds;
  const shapes: Omit<Range, 'isGroup'>[] = [];
  for (const clause of clauses) {
    if (clause.kind === 'assignedTo') {
      // One's own tickets stay whatever the queue filter says.
      for (const queueId of [...queueIds, null]) shapes.push({ userId: clause.userId, queueId });
    } else if (clause.kind === 'unassignedIn') {
      for (const queueId of clause.queueIds) if (!wanted || wanted.includes(queueId)) shapes.push({ userId: null, queueId });
    } else if (clause.kind === 'unassignedWithoutQueue') shapes.push({ userId: null, queueId: null });
  }
  const groups: Range['isGroup'][] = filters.isGroup !== undefined ? [filters.isGroup ? 1 : 0] : bothGroups ? [0, 1] : [undefined];
  return groups.flatMap((isGroup) => shapes.map((shape) => ({ isGroup, ...shape })));
}

/**
 * A range of the page, in the tab index's order. No assignee and no queue are spelled as the
 * index spells them (0), so both planners read the range in order (PostgreSQL keeps an index's
 * order only after equalities, and `is null` is not one to it).
 */
function pageRange(db: Db, status: TicketStatus, range: Range, unread: boolean) {
  let query = db
    .selectFrom('tickets')
    .where('status', '=', status)
    .where(sql`coalesce(${sql.ref('userId')}, 0)`, '=', range.userId ?? 0)
    .where(sql`coalesce(${sql.ref('queueId')}, 0)`, '=', range.queueId ?? 0);
  if (range.isGroup !== undefined) query = query.where('isGroup', '=', range.isGroup);
  // Unread is checked on each entry of the range, from the index (it carries the unread count),
  // not looked up in the partial unread index, which has no order: `+` keeps both planners off it.
  if (unread) query = query.where(sql`+${sql.ref('unreadMessages')}`, '>', 0);
  return query;
}

/**
 * A range to count, read from an index alone: `(status, isGroup, queueId, userId)` (migration
 * 004) or, for unread tickets, the partial unread index `(status, queueId, userId)` (migration
 * 006, its predicate spelled as a literal as it is).
 */
function countRange(db: Db, status: TicketStatus, range: Range, unread: boolean) {
  let query = db.selectFrom('tickets').where('status', '=', status);
  if (range.isGroup !== undefined) query = query.where('isGroup', '=', range.isGroup);
  query = range.queueId === null ? query.where('queueId', 'is', null) : query.where('queueId', '=', range.queueId);
  query = range.userId === null ? query.where('userId', 'is', null) : query.where('userId', '=', range.userId);
  if (unread) query = query.where('unreadMessages', '>', sql.lit(0));
  return query;
}

async function teamQueueIds(db: Db): Promise<number[]> {
  return (await db.selectFrom('queues').select('id').execute()).map((q) => q.id);
}

/**
 * The ids of a tab's page (one more than the page when there is more), or undefined when the
 * viewer sees everything or is in too many queues (then read by the general list's query).
 */
export async function tabPageIds(db: Db, scope: TicketScope, filters: TicketFilters & { status: TicketStatus }, window: { limit: number; offset: number }): Promise<number[] | undefined> {
  const ranges = rangesOf(scope, filters, await teamQueueIds(db), true);
  if (!ranges || ranges.length > MAX_RANGES) return undefined;
  if (ranges.length === 0) return [];
  const end = window.offset + window.limit + 1;
  const unread = Boolean(filters.withUnreadMessages);
  const heads = ranges.map((range, i) =>
    db
      .selectFrom(pageRange(db, filters.status, range, unread).select(['id', 'updatedAt']).orderBy('updatedAt', 'desc').orderBy('id', 'desc').limit(end).as(`r${i}`))
      .select([`r${i}.id as id`, `r${i}.updatedAt as updatedAt`]),
  );
  const [first, ...rest] = heads;
  if (!first) return [];
  const merged = rest.reduce((union, head) => union.unionAll(head), first);
  const rows = await db
    .selectFrom(merged.as('heads'))
    .select('heads.id')
    .orderBy('heads.updatedAt', 'desc')
    .orderBy('heads.id', 'desc')
    .limit(window.limit + 1)
    .offset(window.offset)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * A tab's count, exact up to TAB_COUNT_CAP (then TAB_COUNT_CAP). `base` is the general list's
 * query for the tab (every filter applied), used when the viewer sees everything.
 */
export async function tabCount(db: Db, scope: TicketScope, filters: TicketFilters & { status: TicketStatus }, base: SelectQueryBuilder<Database, 'tickets', object>): Promise<number> {
  const unread = Boolean(filters.withUnreadMessages);
  // Unread tickets are counted from the partial unread index, which has no isGroup: one range for both.
  const ranges = rangesOf(scope, filters, await teamQueueIds(db), !unread);
  let capped: SelectQueryBuilder<Database, never, { one: number }> | undefined;
  if (!ranges || ranges.length > MAX_RANGES) {
    capped = db.selectFrom(base.select(sql.lit(1).as('one')).limit(TAB_COUNT_CAP).as('c')).select('c.one');
  } else {
    const parts = ranges.map((range, i) => db.selectFrom(countRange(db, filters.status, range, unread).select(sql.lit(1).as('one')).limit(TAB_COUNT_CAP).as(`r${i}`)).select(`r${i}.one`));
    const [first, ...rest] = parts;
    if (!first) return 0;
    const union = rest.reduce((all, part) => all.unionAll(part), first);
    capped = db.selectFrom(union.as('u')).select('u.one').limit(TAB_COUNT_CAP);
  }
  const row = await db
    .selectFrom(capped.as('counted'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Math.min(Number(row.n), TAB_COUNT_CAP);
}
