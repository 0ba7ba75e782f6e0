/**
 * The dashboard's figures per queue and per agent over a period: tickets resolved (closed in it)
 * and the median first response, the time from the contact's first message on a ticket created
 * in the period to the inbox's first reply after it (the product's own messages are none). A wait
 * counts for the agent who sent that reply; for the ticket's agent (who holds or closed it) when
 * the reply names nobody (typed on the phone, or stored before senders were kept).
 */
import type { TDashboard } from '@zapdesk/shared/messaging';
import type { Db, DbKind } from '../../core/db/database.js';
import { firstResponses, firstResponseWaits, queuesOf, resolvedCounts, userNames, type Period } from './dashboard.repository.js';
import { businessHoursInFigures, waitMeter } from '../business-hours/waiting-time.js';

type Tally = { resolved: number; waits: number[] };
type Figures = Pick<Required<TDashboard>, 'queues' | 'agents'>;

/** The middle value, or the mean of the two middle ones; null for none. At most 30 days of tickets. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : Math.round(((sorted[middle - 1] ?? 0) + upper) / 2);
}

function tally<K>(tallies: Map<K, Tally>, key: K): Tally {
  let entry = tallies.get(key);
  if (!entry) {
    entry = { resolved: 0, waits: [] };
    tallies.set(key, entry);
  }
  return entry;
}

function figuresOf(entry: Tally | undefined): { resolved: number; medianFirstResponseMs: number | null } {
  return { resolved: entry?.resolved ?? 0, medianFirstResponseMs: median(entry?.waits ?? []) };
}

/**
 * The waits per queue and agent: wall-clock ones grouped by the database; with opening hours
 * counted (`businessHoursInFigures`), each ticket's two moments measured here against its queue's
 * hours.
 */
async function waitGroups(db: Db, kind: DbKind, queueIds: number[] | undefined, period: Period): Promise<{ queueId: number | null; agentId: number | null; waits: number[] }[]> {
  if (!(await businessHoursInFigures(db))) return firstResponseWaits(db, kind, queueIds, period);
  const [rows, waitOf] = await Promise.all([firstResponses(db, queueIds, period), waitMeter(db)]);
  return rows.map((row) => ({ queueId: row.queueId, agentId: row.answeredBy ?? row.userId, waits: row.answeredAt === null ? [] : [waitOf(row.queueId, row.askedAt, row.answeredAt)] }));
}

export async function dashboardFigures(db: Db, kind: DbKind, queueIds: number[] | undefined, period: Period): Promise<Figures> {
  const [resolved, groups, queues] = await Promise.all([resolvedCounts(db, queueIds, period), waitGroups(db, kind, queueIds, period), queuesOf(db, queueIds)]);
  const byQueue = new Map<number | null, Tally>();
  const byAgent = new Map<number, Tally>();
  for (const row of resolved) {
    tally(byQueue, row.queueId).resolved += row.resolved;
    if (row.userId !== null) tally(byAgent, row.userId).resolved += row.resolved;
  }
  // A ticket not answered yet still gives its queue and agent a row, with no wait to count.
  // (A loop, not push(...waits): a queue's list can hold more values than a call takes arguments.)
  for (const group of groups) {
    const lists = [tally(byQueue, group.queueId).waits, ...(group.agentId === null ? [] : [tally(byAgent, group.agentId).waits])];
    for (const list of lists) for (const wait of group.waits) list.push(wait);
  }
  const names = await userNames(db, [...byAgent.keys()]);
  const queueRows: Figures['queues'] = queues.map((queue) => ({ queueId: queue.id, name: queue.name, color: queue.color, ...figuresOf(byQueue.get(queue.id)) }));
  // Tickets without a queue get a row of their own when the period has any.
  if (byQueue.has(null)) queueRows.push({ queueId: null, name: '', color: '', ...figuresOf(byQueue.get(null)) });
  const agentRows = [...byAgent].flatMap(([userId, entry]) => {
    const name = names.get(userId);
    return name === undefined ? [] : [{ userId, name, ...figuresOf(entry) }];
  });
  return { queues: queueRows, agents: agentRows.sort((a, b) => a.name.localeCompare(b.name)) };
}
