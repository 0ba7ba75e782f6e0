/** Refresh-token families: which token id of a sign-in is the valid one, and whether it was revoked. */
import type { Db } from '../../core/db/database.js';

export type RefreshFamily = { id: string; userId: number; currentJti: string; previousJti: string | null; rotatedAt: string | null; revokedAt: string | null };

export async function createFamily(db: Db, family: { id: string; userId: number; jti: string; expiresAt: string }, now: string): Promise<void> {
  await db
    .insertInto('refreshFamilies')
    .values({ id: family.id, userId: family.userId, currentJti: family.jti, previousJti: null, rotatedAt: null, expiresAt: family.expiresAt, revokedAt: null, createdAt: now })
    .execute();
}

export async function findFamily(db: Db, id: string): Promise<RefreshFamily | undefined> {
  return db.selectFrom('refreshFamilies').select(['id', 'userId', 'currentJti', 'previousJti', 'rotatedAt', 'revokedAt']).where('id', '=', id).executeTakeFirst();
}

/** Replaces the valid id, only if `fromJti` still is it: of two racing refreshes, one wins. */
export async function rotateFamily(db: Db, id: string, fromJti: string, toJti: string, expiresAt: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('refreshFamilies')
    .set({ currentJti: toJti, previousJti: fromJti, rotatedAt: now, expiresAt })
    .where('id', '=', id)
    .where('currentJti', '=', fromJti)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function revokeFamily(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('refreshFamilies').set({ revokedAt: now }).where('id', '=', id).where('revokedAt', 'is', null).execute();
}

export async function revokeFamiliesOfUser(db: Db, userId: number, now: string): Promise<void> {
  await db.updateTable('refreshFamilies').set({ revokedAt: now }).where('userId', '=', userId).where('revokedAt', 'is', null).execute();
}

/** Families whose last token has expired are of no use any more. */
export async function deleteExpiredFamilies(db: Db, now: string): Promise<void> {
  await db.deleteFrom('refreshFamilies').where('expiresAt', '<', now).execute();
}
