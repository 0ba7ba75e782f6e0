import { foldText, type Profile } from '@zapdesk/shared/domain';
import type { TUser } from '@zapdesk/shared/schemas';
import type { Db } from '../../core/db/database.js';
import { prepared } from '../../core/db/prepared.js';
import { containsLike, pageWindow } from '../../core/db/sql-helpers.js';
import { sql } from 'kysely';
import { effectivePermissions } from '../../core/auth/permissions.js';
import { AGENT_ROLE_KEY, asRoleKey, parsePermissionList } from '../roles/roles.repository.js';

export type { AuthUser } from '../../core/auth/identity.js';
import type { AuthUser } from '../../core/auth/identity.js';

function asProfile(value: string): Profile {
  return value === 'admin' ? 'admin' : 'user';
}

function authUserQuery(db: Db, id: number) {
  return db
    .selectFrom('users')
    .leftJoin('roles', (join) => join.on((eb) => eb.or([eb('roles.id', '=', eb.ref('users.roleId')), eb.and([eb('users.roleId', 'is', null), eb('roles.key', '=', AGENT_ROLE_KEY)])])))
    .select(['users.id', 'users.name', 'users.email', 'users.profile', 'users.tokenVersion', 'users.roleId', 'roles.permissions'])
    .where('users.id', '=', id);
}

function asAuthUser({ permissions, ...user }: { id: number; name: string; email: string; profile: string; tokenVersion: number; roleId: number | null; permissions: string | null }): AuthUser {
  const profile = asProfile(user.profile);
  return { ...user, profile, permissions: effectivePermissions(profile, parsePermissionList(permissions)) };
}

/** A user with their permissions: their role's (the built-in agent role's when they have none), all of them for an admin. */
export async function findAuthUserById(db: Db, id: number): Promise<AuthUser | undefined> {
  const [row] = (await authUser(db, id)).rows;
  return row && asAuthUser(row);
}

/**
 * A token's user and whether its sign-in (refresh family) is still open, in one statement: asked
 * on every authenticated request, so built once (see core/db/prepared.ts). A family not found
 * counts as ended.
 */
export async function findAuthSession(db: Db, id: number, family: string | undefined): Promise<{ user: AuthUser | undefined; revoked: boolean }> {
  if (family === undefined) return { user: await findAuthUserById(db, id), revoked: false };
  const [row] = (await authSession(db, id, family)).rows;
  if (!row) return { user: undefined, revoked: true };
  const { openFamily, ...user } = row;
  return { user: asAuthUser(user), revoked: openFamily === null };
}

const authUser = prepared((db: Db, id: number) => authUserQuery(db, id));
const authSession = prepared((db: Db, id: number, family: string) =>
  authUserQuery(db, id).select((eb) =>
    eb.selectFrom('refreshFamilies').select('refreshFamilies.id').where('refreshFamilies.id', '=', family).where('refreshFamilies.revokedAt', 'is', null).as('openFamily'),
  ),
);

/** Whether the user's role (the built-in agent role's when they have none) asks for a second factor at sign-in. */
export async function roleRequiresTwoFactor(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .leftJoin('roles', (join) => join.on((eb) => eb.or([eb('roles.id', '=', eb.ref('users.roleId')), eb.and([eb('users.roleId', 'is', null), eb('roles.key', '=', AGENT_ROLE_KEY)])])))
    .select(['roles.twoFactorRequired'])
    .where('users.id', '=', id)
    .executeTakeFirst();
  return Boolean(row?.twoFactorRequired);
}

export async function findCredentialsByEmail(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'passwordHash', 'tokenVersion']).where('email', '=', email).executeTakeFirst();
}

/** Set at a sign-in whose password is below today's policy; cleared by a password change. */
export async function setPasswordChangeRequired(db: Db, id: number, required: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ passwordChangeRequired: required ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

export async function isPasswordChangeRequired(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('passwordChangeRequired').where('id', '=', id).executeTakeFirst();
  return row?.passwordChangeRequired === 1;
}

export async function findPasswordHash(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('passwordHash').where('id', '=', id).executeTakeFirst();
  return row?.passwordHash;
}

/** Replaces an imported (bcrypt) hash by a new one of the same password: no sign-out, no change of password. */
export async function replacePasswordHash(db: Db, id: number, oldHash: string, newHash: string): Promise<void> {
  await db.updateTable('users').set({ passwordHash: newHash }).where('id', '=', id).where('passwordHash', '=', oldHash).execute();
}

export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('profile', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const userColumns = ['users.id', 'users.name', 'users.email', 'users.profile', 'users.whatsappId', 'users.totpEnabledAt', 'users.roleId', 'users.createdAt', 'users.updatedAt'] as const;

/** Loads users with their queues and default connection, in the order of `ids`. */
export async function findUsersByIds(db: Db, ids: number[]): Promise<TUser[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .leftJoin('whatsapps', 'whatsapps.id', 'users.whatsappId')
    .leftJoin('roles', (join) => join.on((eb) => eb.or([eb('roles.id', '=', eb.ref('users.roleId')), eb.and([eb('users.roleId', 'is', null), eb('roles.key', '=', AGENT_ROLE_KEY)])])))
    .select([...userColumns, 'whatsapps.name as whatsappName', 'roles.id as roleRefId', 'roles.name as roleName', 'roles.key as roleKey'])
    .where('users.id', 'in', ids)
    .execute();
  const queues = await db
    .selectFrom('userQueues')
    .innerJoin('queues', 'queues.id', 'userQueues.queueId')
    .select(['userQueues.userId', 'queues.id', 'queues.name', 'queues.color'])
    .where('userQueues.userId', 'in', ids)
    .orderBy('queues.name')
    .execute();
  const byId = new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        email: r.email,
        profile: asProfile(r.profile),
        whatsappId: r.whatsappId,
        whatsapp: r.whatsappId !== null && r.whatsappName !== null ? { id: r.whatsappId, name: r.whatsappName } : null,
        queues: queues.filter((q) => q.userId === r.id).map((q) => ({ id: q.id, name: q.name, color: q.color })),
        twoFactorEnabled: r.totpEnabledAt !== null,
        roleId: r.roleId,
        // An admin holds every permission: no role is shown for them.
        role: asProfile(r.profile) !== 'admin' && r.roleRefId !== null && r.roleName !== null ? { id: r.roleRefId, name: r.roleName, key: asRoleKey(r.roleKey) } : null,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      } satisfies TUser,
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findUserById(db: Db, id: number): Promise<TUser | undefined> {
  const [user] = await findUsersByIds(db, [id]);
  return user;
}

export async function listUsers(db: Db, options: { searchParam: string; pageNumber: number }): Promise<{ users: TUser[]; count: number; hasMore: boolean }> {
  const term = foldText(options.searchParam);
  const base = term ? db.selectFrom('users').where(containsLike(sql.ref('searchText'), term)) : db.selectFrom('users');
  const { limit, offset } = pageWindow(options.pageNumber);
  const [countRow, idRows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select('id').orderBy('name').orderBy('id').limit(limit).offset(offset).execute(),
  ]);
  const count = Number(countRow.n);
  const users = await findUsersByIds(
    db,
    idRows.map((r) => r.id),
  );
  return { users, count, hasMore: count > offset + users.length };
}

export type UserWrite = { name: string; email: string; profile: Profile; whatsappId: number | null; roleId: number | null; passwordHash?: string };

function userSearchText(data: { name: string; email: string }): string {
  return foldText(`${data.name} ${data.email}`);
}

export async function insertUser(db: Db, data: UserWrite & { passwordHash: string }, now: string): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      name: data.name,
      email: data.email,
      searchText: userSearchText(data),
      passwordHash: data.passwordHash,
      profile: data.profile,
      whatsappId: data.whatsappId,
      roleId: data.roleId,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Db, id: number, data: UserWrite & { bumpTokenVersion?: boolean }, now: string): Promise<void> {
  const { bumpTokenVersion, ...fields } = data;
  await db
    .updateTable('users')
    // A new password was checked against today's policy: the request to change it is met.
    .set({ ...fields, searchText: userSearchText(fields), updatedAt: now, ...(fields.passwordHash ? { passwordChangeRequired: 0 } : {}) })
    .$if(bumpTokenVersion === true, (q) => q.set((eb) => ({ tokenVersion: eb('tokenVersion', '+', 1) })))
    .where('id', '=', id)
    .execute();
}

export async function bumpTokenVersion(db: Db, id: number): Promise<number> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ tokenVersion: eb('tokenVersion', '+', 1) }))
    .where('id', '=', id)
    .returning('tokenVersion')
    .executeTakeFirst();
  return row?.tokenVersion ?? 0;
}

export async function setUserQueues(db: Db, userId: number, queueIds: number[]): Promise<void> {
  await db.deleteFrom('userQueues').where('userId', '=', userId).execute();
  if (queueIds.length > 0) {
    await db
      .insertInto('userQueues')
      .values([...new Set(queueIds)].map((queueId) => ({ userId, queueId })))
      .execute();
  }
}

export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** A deleted agent's open tickets go back to the queue instead of staying open with nobody. */
export async function returnOpenTicketsOfUser(db: Db, userId: number, now: string): Promise<void> {
  await db.updateTable('tickets').set({ status: 'pending', userId: null, updatedAt: now }).where('userId', '=', userId).where('status', '=', 'open').execute();
}
