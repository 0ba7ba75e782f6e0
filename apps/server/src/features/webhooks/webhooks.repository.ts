/** SQL of the webhook endpoints and of the last states the webhooks told (webhookStates). */
import type { Selectable } from 'kysely';
import { configCache } from '../../core/db/config-cache.js';
import type { Db } from '../../core/db/database.js';
import type { WebhooksTable } from '../../core/db/schema-webhooks.js';

export type WebhookRow = Selectable<WebhooksTable> & { pendingCount: number; failedCount: number };
export type EndpointRow = Pick<Selectable<WebhooksTable>, 'id' | 'url' | 'events' | 'secret'>;

function withCounts(db: Db) {
  return db
    .selectFrom('webhooks as w')
    .selectAll('w')
    .select((eb) => [
      eb.selectFrom('webhookDeliveries as d').whereRef('d.webhookId', '=', 'w.id').where('d.status', '=', 'pending').select(eb.fn.countAll<number>().as('n')).as('pendingCount'),
      eb.selectFrom('webhookDeliveries as d').whereRef('d.webhookId', '=', 'w.id').where('d.status', '=', 'failed').select(eb.fn.countAll<number>().as('n')).as('failedCount'),
    ]);
}

function counted(row: Selectable<WebhooksTable> & { pendingCount: number | string | null; failedCount: number | string | null }): WebhookRow {
  return { ...row, pendingCount: Number(row.pendingCount ?? 0), failedCount: Number(row.failedCount ?? 0) };
}

export async function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return (await withCounts(db).orderBy('w.id').execute()).map(counted);
}

export async function findWebhook(db: Db, id: number): Promise<WebhookRow | undefined> {
  const row = await withCounts(db).where('w.id', '=', id).executeTakeFirst();
  return row ? counted(row) : undefined;
}

/** The enabled endpoints, read for every event: kept for a moment (see config-cache.ts), every write below tells it. */
const enabled = configCache((db) => db.selectFrom('webhooks').select(['id', 'url', 'events', 'secret']).where('enabled', '=', 1).execute());

export async function insertWebhook(db: Db, values: Omit<Selectable<WebhooksTable>, 'id'>): Promise<number> {
  const row = await db.insertInto('webhooks').values(values).returning('id').executeTakeFirstOrThrow();
  enabled.changed();
  return row.id;
}

export async function updateWebhook(db: Db, id: number, patch: Partial<Omit<Selectable<WebhooksTable>, 'id' | 'createdAt'>>): Promise<boolean> {
  const result = await db.updateTable('webhooks').set(patch).where('id', '=', id).executeTakeFirst();
  enabled.changed();
  return Number(result.numUpdatedRows) > 0;
}

/** Its deliveries go with it (the foreign key cascades; deleted here too for SQLite without foreign keys on). */
export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const deleted = await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhookDeliveries').where('webhookId', '=', id).execute();
    const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
  enabled.changed();
  return deleted;
}

/** The enabled endpoints, for turning an event into deliveries (shared: read, never changed). */
export function enabledEndpoints(db: Db): Promise<readonly EndpointRow[]> {
  return enabled.read(db);
}

export async function endpointsByIds(db: Db, ids: number[]): Promise<EndpointRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhooks').select(['id', 'url', 'events', 'secret']).where('id', 'in', ids).execute();
}

/**
 * Sets `key` to `value` and tells what was there: `undefined` when the key was new (this call
 * inserted it), the old value otherwise; `changed` only for the one writer whose compare-and-set
 * moved it (two nodes telling the same change: one of them wins).
 */
export async function swapState(db: Db, key: string, value: string, now: string): Promise<{ existed: boolean; changed: boolean; previous: string | undefined }> {
  const current = await db.selectFrom('webhookStates').select('value').where('key', '=', key).executeTakeFirst();
  if (!current) {
    const inserted = await db
      .insertInto('webhookStates')
      .values({ key, value, updatedAt: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return { existed: Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0, changed: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0, previous: undefined };
  }
  if (current.value === value) {
    return { existed: true, changed: false, previous: current.value };
  }
  const updated = await db.updateTable('webhookStates').set({ value, updatedAt: now }).where('key', '=', key).where('value', '=', current.value).executeTakeFirst();
  return { existed: true, changed: Number(updated.numUpdatedRows) > 0, previous: current.value };
}

export async function sweepStates(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('webhookStates').where('updatedAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function connectionName(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('whatsapps').select('name').where('id', '=', id).executeTakeFirst())?.name;
}
