/**
 * The dashboard's figures per queue and per agent over a period: tickets resolved (closed in it)
 * and the median first response, the time from the contact's first message on a ticket created
 * in the period to the inbox's first reply after it (the product's own messages are none). A wait
 * counts for the agent who sent that reply; for the ticket's agent (who holds or closed it) when
 * the reply names nobody (typed on the phone, or stored before senders were kept).
 */
import type { TDashboard } from '@zapdesk/shared/messaging';
import type { Db } from '../../core/db/database.js';
import { firstResponses, queuesOf, resolvedCounts, userNames, type Period } from './dashboard.repository.js';
import { waitMeter } from '../business-hours/waiting-time.js';

type Tally = { resolved: number; waits: number[] };
type Figures = Pick<Required<TDashboard>, 'queues' | 'agents'>;

/** The middle value, or the mean of the two middle ones; null for none. At most 30 days of tickets. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
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

export async function dashboardFigures(db: Db, queueIds: number[] | undefined, period: Period): Promise<Figures> {
  const [resolved, responses, queues, waitOf] = await Promise.all([resolvedCounts(db, queueIds, period), firstResponses(db, queueIds, period), queuesOf(db, queueIds), waitMeter(db)]);
  const byQueue = new Map<number | null, Tally>();
  const byAgent = new Map<number, Tally>();
  for (const row of resolved) {
    tally(byQueue, row.queueId).resolved += row.resolved;
    if (row.userId !== null) tally(byAgent, row.userId).resolved += row.resolved;
  }
  // A ticket not answered yet still gives its queue and agent a row, with no wait to count.
  for (const row of responses) {
    const agent = row.answeredBy ?? row.userId;
    const waits = [tally(byQueue, row.queueId).waits, ...(agent === null ? [] : [tally(byAgent, agent).waits])];
    if (row.answeredAt === null) continue;
    const wait = waitOf(row.queueId, row.askedAt, row.answeredAt);
    for (const list of waits) list.push(wait);
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
