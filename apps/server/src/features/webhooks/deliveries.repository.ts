/**
 * SQL of the webhook deliveries: written before they are sent, claimed with a lease by the
 * sender of any node, finished by the node that holds the claim.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import type { WebhookDeliveriesTable } from '../../core/db/schema-webhooks.js';

export type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'seq'>;
export type ClaimedDelivery = Pick<DeliveryRow, 'id' | 'webhookId' | 'event' | 'body' | 'attempts' | 'retryUntil'>;
export type AttemptResult = Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'nextAttemptAt' | 'responseStatus' | 'responseBody' | 'error' | 'durationMs' | 'lastAttemptAt' | 'deliveredAt'>>;

export async function insertDeliveries(db: Db, rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhookDeliveries').values(rows).execute();
}

/**
 * The due rows a node may take: pending, due, not claimed (or claimed by a node whose lease ran
 * out), and the oldest pending row of their endpoint and order key (a ticket's deliveries go one
 * after the other, in the order they were stored). `canTake` keeps the concurrency limits. On
 * PostgreSQL the rows are locked with SKIP LOCKED while they are claimed, so two nodes never take
 * the same row; SQLite has one writer, and the claim's own conditions decide.
 */
export async function claimDue(
  db: Db,
  kind: DbKind,
  options: { nodeId: string; now: string; leaseUntil: string; limit: number; canTake: (row: { webhookId: number }) => boolean },
): Promise<ClaimedDelivery[]> {
  const { nodeId, now, leaseUntil, limit, canTake } = options;
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('webhookDeliveries as d')
      .select(['d.seq', 'd.webhookId'])
      .where('d.status', '=', 'pending')
      .where('d.nextAttemptAt', '<=', now)
      .where((eb) => eb.or([eb('d.claimedUntil', 'is', null), eb('d.claimedUntil', '<', now)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhookDeliveries as o')
              .select(sql.lit(1).as('one'))
              .whereRef('o.webhookId', '=', 'd.webhookId')
              .whereRef('o.orderKey', '=', 'd.orderKey')
              .where('o.status', '=', 'pending')
              .whereRef('o.seq', '<', 'd.seq'),
          ),
        ),
      )
      .orderBy('d.seq')
      .limit(limit * 4);
    if (kind === 'postgres') query = query.forUpdate().skipLocked();
    const candidates = await query.execute();
    const taken: number[] = [];
    for (const row of candidates) {
      if (taken.length >= limit) break;
      if (canTake(row)) taken.push(row.seq);
    }
    if (taken.length === 0) return [];
    return trx
      .updateTable('webhookDeliveries')
      .set({ claimedBy: nodeId, claimedUntil: leaseUntil })
      .where('seq', 'in', taken)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', now)]))
      .returning(['id', 'webhookId', 'event', 'body', 'attempts', 'retryUntil'])
      .execute();
  });
}

/** The outcome of an attempt, written only by the node that still holds the claim. */
export async function finishAttempt(db: Db, id: string, nodeId: string, result: AttemptResult): Promise<boolean> {
  const updated = await db
    .updateTable('webhookDeliveries')
    .set({ ...result, claimedBy: null, claimedUntil: null })
    .where('id', '=', id)
    .where('claimedBy', '=', nodeId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Every claim goes back: a single node at start (the node that held them is gone: it was this one). */
export async function releaseAllClaims(db: Db): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ claimedBy: null, claimedUntil: null }).where('status', '=', 'pending').where('claimedBy', 'is not', null).execute();
}

export async function listDeliveries(db: Db, webhookId: number, status: DeliveryRow['status'] | undefined, page: number, perPage: number): Promise<DeliveryRow[]> {
  let query = db.selectFrom('webhookDeliveries').selectAll().where('webhookId', '=', webhookId);
  if (status) query = query.where('status', '=', status);
  const rows = await query
    .orderBy('seq', 'desc')
    .limit(perPage + 1)
    .offset((page - 1) * perPage)
    .execute();
  return rows.map(({ seq: _seq, ...row }) => row);
}

export async function findDelivery(db: Db, webhookId: number, id: string): Promise<DeliveryRow | undefined> {
  const row = await db.selectFrom('webhookDeliveries').selectAll().where('webhookId', '=', webhookId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const { seq: _seq, ...rest } = row;
  return rest;
}

/**
 * Back to pending, due now, with a fresh retry window; the attempts go on counting. A claim is
 * dropped: an attempt under way then writes no outcome over the resend, and the row goes again.
 */
export async function resendDelivery(db: Db, webhookId: number, id: string, now: string, retryUntil: string): Promise<boolean> {
  const updated = await db
    .updateTable('webhookDeliveries')
    .set({ status: 'pending', nextAttemptAt: now, retryUntil, deliveredAt: null, claimedBy: null, claimedUntil: null })
    .where('webhookId', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Delivered and failed rows stored before `before` are removed; pending ones stay. */
export async function sweepDeliveries(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('webhookDeliveries').where('status', 'in', ['delivered', 'failed']).where('createdAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
