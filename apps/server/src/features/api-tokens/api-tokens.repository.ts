/** Named API tokens: the only place with their SQL. */
import type { Db } from '../../core/db/database.js';

export type ApiTokenRow = {
  id: number;
  name: string;
  prefix: string;
  permissions: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdBy: number | null;
  creatorName: string | null;
  createdAt: string;
  revokedAt: string | null;
};

export type ApiTokenInsert = { name: string; tokenHash: string; prefix: string; permissions: string; expiresAt: string | null; createdBy: number };

function selectTokens(db: Db) {
  return db
    .selectFrom('apiTokens')
    .leftJoin('users', 'users.id', 'apiTokens.createdBy')
    .select([
      'apiTokens.id',
      'apiTokens.name',
      'apiTokens.prefix',
      'apiTokens.permissions',
      'apiTokens.expiresAt',
      'apiTokens.lastUsedAt',
      'apiTokens.createdBy',
      'users.name as creatorName',
      'apiTokens.createdAt',
      'apiTokens.revokedAt',
    ]);
}

export async function insertApiToken(db: Db, token: ApiTokenInsert, now: string): Promise<number> {
  const row = await db
    .insertInto('apiTokens')
    .values({ ...token, lastUsedAt: null, revokedAt: null, createdAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest first. */
export function listApiTokens(db: Db): Promise<ApiTokenRow[]> {
  return selectTokens(db).orderBy('apiTokens.id', 'desc').execute();
}

export function findApiTokenById(db: Db, id: number): Promise<ApiTokenRow | undefined> {
  return selectTokens(db).where('apiTokens.id', '=', id).executeTakeFirst();
}

/** What a call needs to know of the token it presents; found by the hash's unique index. */
export function findApiTokenByHash(db: Db, tokenHash: string) {
  return db.selectFrom('apiTokens').select(['id', 'name', 'permissions', 'expiresAt', 'lastUsedAt', 'revokedAt']).where('tokenHash', '=', tokenHash).executeTakeFirst();
}

/** Marks the token revoked, once: a second revocation keeps the first time. */
export async function revokeApiToken(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('apiTokens').set({ revokedAt: now }).where('id', '=', id).where('revokedAt', 'is', null).execute();
}

/** Records a use, unless one was recorded since `since` (another node, another request). */
export async function touchApiToken(db: Db, id: number, now: string, since: string): Promise<void> {
  await db
    .updateTable('apiTokens')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', since)]))
    .execute();
}
