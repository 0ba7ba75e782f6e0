/** The leases table (see leases.ts): every statement is one atomic row change. */
import type { Db } from '../db/database.js';

/**
 * Takes the lease `name` for `owner` until `expiresAt`: when nobody holds it, or when its holder
 * let it expire (before `now`). Answers the new generation, or
 * undefined when another node holds it.
 */
export async function takeLease(db: Db, name: string, owner: string, now: string, expiresAt: string): Promise<number | undefined> {
  const inserted = await db
    .insertInto('leases')
    .values({ name, owner, generation: 1, expiresAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('generation')
    .executeTakeFirst();
  if (inserted) return inserted.generation;
  const taken = await db
    .updateTable('leases')
    .set((eb) => ({ owner, generation: eb('generation', '+', 1), expiresAt }))
    .where('name', '=', name)
    .where('expiresAt', '<', now)
    .returning('generation')
    .executeTakeFirst();
  return taken?.generation;
}

/** Extends a lease still held under this generation; false once it was taken over. */
export async function renewLease(db: Db, name: string, owner: string, generation: number, expiresAt: string): Promise<boolean> {
  const result = await db.updateTable('leases').set({ expiresAt }).where('name', '=', name).where('owner', '=', owner).where('generation', '=', generation).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a lease up at once (a clean stop): another node may take it without waiting. */
export async function releaseLease(db: Db, name: string, owner: string, generation: number, now: string): Promise<void> {
  await db.updateTable('leases').set({ expiresAt: now }).where('name', '=', name).where('owner', '=', owner).where('generation', '=', generation).execute();
}

/** The node holding a lease that has not expired by `now`. */
export async function leaseHolder(db: Db, name: string, now: string): Promise<string | undefined> {
  const row = await db.selectFrom('leases').select('owner').where('name', '=', name).where('expiresAt', '>=', now).executeTakeFirst();
  return row?.owner;
}

/** How many leases whose name starts with `prefix` are held now (the live nodes, by their own leases). */
export async function countHeldLeases(db: Db, prefix: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('leases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('name', 'like', `${prefix}%`)
    .where('expiresAt', '>=', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
