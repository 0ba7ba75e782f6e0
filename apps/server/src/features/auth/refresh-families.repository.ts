/** Refresh-token families: which token id of a sign-in is the valid one, and whether it was revoked. */
import type { Db } from '../../core/db/database.js';

export type RefreshFamily = { id: string; userId: number; currentJti: string; previousJti: string | null; rotatedAt: string | null; revokedAt: string | null; secondFactor: boolean };

export async function createFamily(db: Db, family: { id: string; userId: number; jti: string; expiresAt: string; secondFactor: boolean }, now: string): Promise<void> {
  await db
    .insertInto('refreshFamilies')
    .values({
      id: family.id,
      userId: family.userId,
      currentJti: family.jti,
      previousJti: null,
      rotatedAt: null,
      expiresAt: family.expiresAt,
      revokedAt: null,
      secondFactor: family.secondFactor ? 1 : 0,
      createdAt: now,
    })
    .execute();
}

export async function findFamily(db: Db, id: string): Promise<RefreshFamily | undefined> {
  const row = await db.selectFrom('refreshFamilies').select(['id', 'userId', 'currentJti', 'previousJti', 'rotatedAt', 'revokedAt', 'secondFactor']).where('id', '=', id).executeTakeFirst();
  return row && { ...row, secondFactor: row.secondFactor === 1 };
}

/** The sign-in has just passed the second factor (it turned two-factor sign-in on). */
export async function markSecondFactor(db: Db, id: string): Promise<void> {
  await db.updateTable('refreshFamilies').set({ secondFactor: 1 }).where('id', '=', id).execute();
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

export async function revokeFamiliesOfUser(db: Db, userId: number, now: string, options: { except?: string } = {}): Promise<void> {
  await db
    .updateTable('refreshFamilies')
    .set({ revokedAt: now })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .$if(options.except !== undefined, (q) => q.where('id', '!=', options.except ?? ''))
    .execute();
}

/** Families whose last token has expired are of no use any more. */
export async function deleteExpiredFamilies(db: Db, now: string): Promise<void> {
  await db.deleteFrom('refreshFamilies').where('expiresAt', '<', now).execute();
}
