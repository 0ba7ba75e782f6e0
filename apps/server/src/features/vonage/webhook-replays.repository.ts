/** The memory of webhook deliveries already taken, in the database every node shares. */
import type { Db } from '../../core/db/database.js';

/**
 * Remembers a delivery's key until `expiresAt`: false when it is remembered already (a replay;
 * the unique key decides between two nodes taking it at once). Keys past their time go first.
 */
export async function rememberDelivery(db: Db, key: string, expiresAt: string, now: string): Promise<boolean> {
  await db.deleteFrom('webhookReplays').where('expiresAt', '<', now).execute();
  const inserted = await db
    .insertInto('webhookReplays')
    .values({ key, expiresAt })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets a delivery whose handling failed, so that the provider's next try is taken. */
export async function forgetDelivery(db: Db, key: string): Promise<void> {
  await db.deleteFrom('webhookReplays').where('key', '=', key).execute();
}
