/** The dashboard's counts: tickets by status, and the creation times of today's, within some queues (or all). */
import type { Db } from '../../core/db/database.js';

/** `queueIds` undefined: every ticket (admins); otherwise those queues' tickets and those without a queue. */
function scoped(db: Db, queueIds: number[] | undefined) {
  const base = db.selectFrom('tickets');
  return queueIds === undefined ? base : base.where((eb) => eb.or([eb('queueId', 'is', null), ...(queueIds.length ? [eb('queueId', 'in', queueIds)] : [])]));
}

export async function ticketCountsByStatus(db: Db, queueIds: number[] | undefined): Promise<Map<string, number>> {
  const rows = await scoped(db, queueIds)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

export async function ticketCreationTimesSince(db: Db, queueIds: number[] | undefined, since: string): Promise<string[]> {
  const rows = await scoped(db, queueIds).select('createdAt').where('createdAt', '>=', since).execute();
  return rows.map((r) => r.createdAt);
}
