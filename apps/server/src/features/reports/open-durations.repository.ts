/**
 * Durations counted in opening hours, by the database: the tickets' two moments are looked up in
 * the open-time table (open-time-table.ts), passed as a VALUES list, by an equality join on the
 * hours group and the UTC day, so the cost grows with the tickets, not with the number of days.
 * Tickets of no hours (no queue hours and no default) count wall-clock time.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { DAY_MS, openTimeRows, type OpenTimeGroups } from './open-time-table.js';
import { epochMs, filtered, nearestRank, type ReportScope, type TicketColumn } from './reports.repository.js';

type Options = { start: TicketColumn; end: TicketColumn; rangeColumn: TicketColumn; percents: readonly number[] };

/** The hours group of the ticket's queue, as SQL: its own, else the default's (null: always open). */
function groupOf(groups: OpenTimeGroups): RawBuilder<number | null> {
  const fallback = groups.defaultGroup === null ? sql`null` : sql.lit(groups.defaultGroup);
  if (groups.byQueue.size === 0) return sql<number | null>`${fallback}`;
  const whens = [...groups.byQueue].map(([queueId, g]) => sql`when ${sql.lit(queueId)} then ${sql.lit(g)}`);
  return sql<number | null>`case +${sql.ref('tickets.queueId')} ${sql.join(whens, sql` `)} else ${fallback} end`;
}

/** The open time of moment `t` (a column of `from`): the largest row value of its group and day. */
function openTimeJoin(from: string, t: string) {
  const at = sql.ref(`${from}.${t}`);
  return sql`join oi on oi.g = ${sql.ref(`${from}.g`)} and oi.d = ${at} / ${sql.lit(DAY_MS)} and oi.s <= ${at}`;
}

function openTimeOf(t: RawBuilder<unknown>) {
  return sql<number>`max(oi.c + case when ${t} < oi.e then ${t} - oi.s else oi.e - oi.s end)`;
}

export async function openDurationPercentiles(db: Db, scope: ReportScope, groups: OpenTimeGroups, options: Options): Promise<{ count: number; values: (number | null)[] }> {
  const tickets = filtered(db, scope, options.rangeColumn)
    .where(options.end, 'is not', null)
    .select(['tickets.id as id', epochMs(scope.kind, options.start).as('a'), epochMs(scope.kind, options.end).as('b'), groupOf(groups).as('g')]);
  const span = await db
    .selectFrom(tickets.as('t'))
    .select([sql<number | null>`min(${sql.ref('t.a')})`.as('first'), sql<number | null>`max(${sql.ref('t.b')})`.as('last')])
    .executeTakeFirst();
  if (span?.first == null || span.last == null) return { count: 0, values: options.percents.map(() => null) };
  const rows = openTimeRows(groups.hours, Math.min(Number(span.first), Number(span.last)), Math.max(Number(span.first), Number(span.last)));
  const values = sql.join(rows.map((r) => sql`(${sql.lit(r.g)}, ${sql.lit(r.d)}, ${sql.lit(r.s)}, ${sql.lit(r.e)}, ${sql.lit(r.c)})`));
  const durations = sql<{ v: number }>`(
    with oi(g, d, s, e, c) as (values ${values}),
    t as ${tickets},
    ta as (select t.id, t.g, t.b, ${openTimeOf(sql.ref('t.a'))} as oa from t ${openTimeJoin('t', 'a')} group by t.id, t.g, t.b)
    select ${openTimeOf(sql.ref('ta.b'))} - ta.oa as v from ta ${openTimeJoin('ta', 'b')} group by ta.id, ta.oa
    union all
    select t.b - t.a as v from t where t.g is null
  )`;
  return nearestRank(db, durations.as('d'), options.percents);
}
