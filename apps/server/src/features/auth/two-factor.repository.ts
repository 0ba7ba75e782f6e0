/** Two-factor sign-in's rows: a user's TOTP state, their recovery codes and sign-in challenges. */
import type { Db } from '../../core/db/database.js';

export type TotpState = { totpSecret: string | null; totpEnabledAt: string | null; totpLastStep: number | null };

export async function findTotpState(db: Db, userId: number): Promise<TotpState | undefined> {
  return db.selectFrom('users').select(['totpSecret', 'totpEnabledAt', 'totpLastStep']).where('id', '=', userId).executeTakeFirst();
}

/** A new secret waiting for its first code; refused (false) while two-factor sign-in is on. */
export async function setPendingSecret(db: Db, userId: number, sealedSecret: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totpSecret: sealedSecret, totpEnabledAt: null, totpLastStep: null })
    .where('id', '=', userId)
    .where('totpEnabledAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The pending secret becomes the user's second factor, its first code spent. */
export async function enableTotp(db: Db, userId: number, step: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totpEnabledAt: now, totpLastStep: step })
    .where('id', '=', userId)
    .where('totpEnabledAt', 'is', null)
    .where('totpSecret', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Spends a code's time step: true only when no code of this step or a later one was accepted
 * before. One statement, so two requests racing with the same code cannot both pass.
 */
export async function acceptStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totpLastStep: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totpLastStep', 'is', null), eb('totpLastStep', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function clearTwoFactor(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where('id', '=', userId).execute();
  await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  await db.deleteFrom('twoFactorChallenges').where('userId', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: number, codeHashes: string[], now: string): Promise<void> {
  await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  await db
    .insertInto('recoveryCodes')
    .values(codeHashes.map((codeHash) => ({ userId, codeHash, usedAt: null, createdAt: now })))
    .execute();
}

/** Marks an unused code used; false when it is not the user's or was used already. */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string, now: string): Promise<boolean> {
  const result = await db.updateTable('recoveryCodes').set({ usedAt: now }).where('userId', '=', userId).where('codeHash', '=', codeHash).where('usedAt', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recoveryCodes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ChallengePurpose = 'verify' | 'setup';
export type Challenge = { id: string; userId: number; tokenVersion: number; purpose: ChallengePurpose; attempts: number; expiresAt: string };

export async function insertChallenge(db: Db, challenge: Omit<Challenge, 'attempts'>, now: string): Promise<void> {
  await db.deleteFrom('twoFactorChallenges').where('expiresAt', '<', now).execute();
  await db
    .insertInto('twoFactorChallenges')
    .values({ ...challenge, attempts: 0, createdAt: now })
    .execute();
}

export async function findChallenge(db: Db, id: string): Promise<Challenge | undefined> {
  const row = await db.selectFrom('twoFactorChallenges').select(['id', 'userId', 'tokenVersion', 'purpose', 'attempts', 'expiresAt']).where('id', '=', id).executeTakeFirst();
  return row && { ...row, purpose: row.purpose === 'setup' ? 'setup' : 'verify' };
}

/** Counts one attempt, only while fewer than `max` were made: false means none is left. */
export async function countAttempt(db: Db, id: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('twoFactorChallenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A challenge is spent by its success: the same token cannot start a second sign-in. */
export async function deleteChallenge(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('twoFactorChallenges').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
