/** Per user: the last successful sign-in and the failed attempts since (table signInRecords). */
import type { Db } from '../../core/db/database.js';

export type SignInRecord = { lastSuccessAddress: string | null; failedCount: number; failedLastAt: string | null; failedLastAddress: string | null };

export async function findSignInRecord(db: Db, userId: number): Promise<SignInRecord | undefined> {
  return db.selectFrom('signInRecords').select(['lastSuccessAddress', 'failedCount', 'failedLastAt', 'failedLastAddress']).where('userId', '=', userId).executeTakeFirst();
}

export async function recordFailedSignIn(db: Db, userId: number, address: string, now: string): Promise<void> {
  await db
    .insertInto('signInRecords')
    .values({ userId, failedCount: 1, failedLastAt: now, failedLastAddress: address })
    .onConflict((oc) => oc.column('userId').doUpdateSet((eb) => ({ failedCount: eb('signInRecords.failedCount', '+', 1), failedLastAt: now, failedLastAddress: address })))
    .execute();
}

/** A successful sign-in: its address becomes the known one, and the failures are forgotten. */
export async function recordSuccessfulSignIn(db: Db, userId: number, address: string, now: string): Promise<void> {
  const success = { lastSuccessAt: now, lastSuccessAddress: address, failedCount: 0, failedLastAt: null, failedLastAddress: null };
  await db
    .insertInto('signInRecords')
    .values({ userId, ...success })
    .onConflict((oc) => oc.column('userId').doUpdateSet(success))
    .execute();
}
