/**
 * The dashboard's counts, within some queues (or all): tickets by status, new tickets per hour or
 * day, tickets resolved and the waits for a first reply over a period. Each reads one index of
 * tickets (a range of it, or all of it for the counters) and hands over counts or one list per
 * group, never a row per ticket: at 1,000,000 tickets a day can hold 170,000.
 */
import { sql } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import { epochMs } from '../../core/db/sql-helpers.js';

/** A period as ISO instants: from `from` (included) to `before` (excluded). */
export type Period = { from: string; before: string };

/**
 * `queueIds` undefined: every ticket (admins); otherwise those queues' tickets and those without a
 * queue. The queue is checked on the index the statement reads (`+column`, on both databases):
 * through a queue index instead, each of the queue's tickets would be read, whatever the range.
 */
function scoped(db: Db, queueIds: number[] | undefined) {
  const base = db.selectFrom('tickets');
  if (queueIds === undefined) return base;
  const queue = sql<number | null>`+${sql.ref('tickets.queueId')}`;
  return base.where((eb) => eb.or([eb(queue, 'is', null), ...(queueIds.length ? [eb(queue, 'in', queueIds)] : [])]));
}

export async function ticketCountsByStatus(db: Db, queueIds: number[] | undefined): Promise<Map<string, number>> {
  const rows = await scoped(db, queueIds)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * New tickets per period between consecutive `bounds` (ISO instants, oldest first), by index.
 * The periods are the server's days or today's hours, cut by the caller: a day at a clock change
 * lasts 23 or 25 hours, which no fixed-width arithmetic in SQL would follow on both databases.
 * One count per period, each a range of the creation index (no value computed per ticket).
 */
export async function ticketCountsBetween(db: Db, kind: DbKind, queueIds: number[] | undefined, bounds: string[]): Promise<number[]> {
  const counts = bounds.slice(1).map(() => 0);
  if (counts.length === 0) return counts;
  const periods = counts.map((_, i) => sql`(${sql.lit(i)}, ${sql.lit(bounds[i] ?? '')}, ${sql.lit(bounds[i + 1] ?? '')})`);
  const instant = (column: string) => (kind === 'postgres' ? sql`cast(${sql.ref(column)} as timestamptz)` : sql.ref(column));
  const queue = sql`+tickets."queueId"`;
  const inScope = queueIds === undefined ? sql`` : sql` and (${queue} is null${queueIds.length ? sql` or ${queue} in (${sql.join(queueIds)})` : sql``})`;
  const counted = sql`select count(*) from tickets where tickets."createdAt" >= ${instant('s.a')} and tickets."createdAt" < ${instant('s.b')}${inScope}`;
  const result = await sql<{ i: number | string; n: number | string }>`with s(i, a, b) as (values ${sql.join(periods)}) select s.i as i, (${counted}) as n from s`.execute(db);
  for (const row of result.rows) counts[Number(row.i)] = Number(row.n);
  return counts;
}

/**
 * Tickets closed in the period, by queue and agent: their last close (`closedAt`, kept only while
 * the ticket is closed) falls in it, read from the closed tickets' report index (migration 040).
 */
export async function resolvedCounts(db: Db, queueIds: number[] | undefined, period: Period): Promise<{ queueId: number | null; userId: number | null; resolved: number }[]> {
  const rows = await scoped(db, queueIds)
    .select(['queueId', 'userId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('closedAt', 'is not', null)
    .where('closedAt', '>=', period.from)
    .where('closedAt', '<', period.before)
    .groupBy(['queueId', 'userId'])
    .execute();
  return rows.map((r) => ({ queueId: r.queueId, userId: r.userId, resolved: Number(r.n) }));
}

/**
 * The tickets created in the period that the contact wrote to: when the contact first wrote, and
 * when the inbox first answered after that (null: not yet), with the agent who answered when the
 * message names one. The product's own messages (greetings, queue menus, notices, the chatbot's)
 * are no answer; messages stored before senders were kept (migration 020) count as before. Both
 * moments are kept on the ticket as its messages are stored (migration 047): one index range.
 */
export async function firstResponses(
  db: Db,
  queueIds: number[] | undefined,
  period: Period,
): Promise<{ queueId: number | null; userId: number | null; askedAt: string; answeredAt: string | null; answeredBy: number | null }[]> {
  const rows = await scoped(db, queueIds)
    .select(['queueId', 'userId', 'askedAt', 'answeredAt', 'answeredBy'])
    .where('createdAt', '>=', period.from)
    .where('createdAt', '<', period.before)
    .where('askedAt', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.askedAt === null ? [] : [{ queueId: r.queueId, userId: r.userId, askedAt: r.askedAt, answeredAt: r.answeredAt, answeredBy: r.answeredBy }]));
}

/**
 * The same tickets as `firstResponses`, grouped by queue and by the agent a wait counts for (the
 * one who answered, else the ticket's): how many, and the wall-clock waits of those answered (in
 * ms, never below 0) as one list per group. For figures without opening hours.
 */
export async function firstResponseWaits(db: Db, kind: DbKind, queueIds: number[] | undefined, period: Period): Promise<{ queueId: number | null; agentId: number | null; waits: number[] }[]> {
  const gap = sql<number>`${epochMs(kind, 'answeredAt')} - ${epochMs(kind, 'askedAt')}`;
  const wait = sql<number | null>`case when ${sql.ref('answeredAt')} is null then null when ${gap} < 0 then 0 else ${gap} end`;
  const tickets = scoped(db, queueIds)
    .select(['queueId', (eb) => eb.fn.coalesce('answeredBy', 'userId').as('agentId'), wait.as('wait')])
    .where('createdAt', '>=', period.from)
    .where('createdAt', '<', period.before)
    .where('askedAt', 'is not', null);
  const list = kind === 'postgres' ? sql<string | null>`string_agg(cast(${sql.ref('wait')} as text), ',')` : sql<string | null>`group_concat(${sql.ref('wait')})`;
  const rows = await db
    .selectFrom(tickets.as('t'))
    .select(['t.queueId', 't.agentId', list.as('list')])
    .groupBy(['t.queueId', 't.agentId'])
    .execute();
  return rows.map((r) => ({ queueId: r.queueId, agentId: r.agentId, waits: r.list ? r.list.split(',').map(Number) : [] }));
}

/** The queues a scope lists: every queue (admins) or the user's. */
export async function queuesOf(db: Db, queueIds: number[] | undefined): Promise<{ id: number; name: string; color: string }[]> {
  if (queueIds !== undefined && queueIds.length === 0) return [];
  const base = db.selectFrom('queues').select(['id', 'name', 'color']).orderBy('name');
  return queueIds === undefined ? base.execute() : base.where('id', 'in', queueIds).execute();
}

export async function userNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
