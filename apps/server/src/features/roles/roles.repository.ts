import { AGENT_ROLE_KEY, BUILT_IN_ROLE_KEYS, type BuiltInRoleKey, type Permission } from '@zapdesk/shared/permissions';
import type { TRole } from '@zapdesk/shared/roles';
import { isPermission } from '@zapdesk/shared/permissions';
import type { Db } from '../../core/db/database.js';

export { AGENT_ROLE_KEY };

/** The stored JSON array of permission keys; anything unreadable or unknown grants nothing. */
export function parsePermissionList(text: string | null): Permission[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is Permission => typeof v === 'string' && isPermission(v)) : [];
  } catch {
    return [];
  }
}

export function asRoleKey(value: string | null): BuiltInRoleKey | null {
  return BUILT_IN_ROLE_KEYS.find((k) => k === value) ?? null;
}

const columns = ['roles.id', 'roles.name', 'roles.key', 'roles.permissions', 'roles.twoFactorRequired', 'roles.createdAt', 'roles.updatedAt'] as const;

/** Roles with how many plain users hold each: the built-in role counts those without another one. */
export async function listRoles(db: Db, ids?: number[]): Promise<TRole[]> {
  let query = db
    .selectFrom('roles')
    .select(columns)
    .select((eb) =>
      eb
        .selectFrom('users')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .where('users.profile', '!=', 'admin')
        .where((w) => w.or([w('users.roleId', '=', w.ref('roles.id')), w.and([w('users.roleId', 'is', null), w('roles.key', '=', AGENT_ROLE_KEY)])]))
        .as('userCount'),
    )
    // The built-in role first, then the others by name.
    .orderBy((eb) => eb.case().when('roles.key', 'is not', null).then(0).else(1).end())
    .orderBy('roles.name');
  if (ids) query = query.where('roles.id', 'in', ids);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    key: asRoleKey(r.key),
    permissions: parsePermissionList(r.permissions),
    twoFactorRequired: Number(r.twoFactorRequired) === 1,
    userCount: Number(r.userCount ?? 0),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

export async function findRoleById(db: Db, id: number): Promise<TRole | undefined> {
  const [role] = await listRoles(db, [id]);
  return role;
}

export async function findBuiltInRoleId(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom('roles').select('id').where('key', '=', AGENT_ROLE_KEY).executeTakeFirst();
  return row?.id;
}

export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('roles')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export type RoleWrite = { name: string; permissions: readonly Permission[]; twoFactorRequired: boolean };

function stored(data: RoleWrite) {
  // Kept in the order of the permission list, so the stored text does not depend on the order of a form's ticks.
  return { name: data.name, permissions: JSON.stringify(data.permissions), twoFactorRequired: data.twoFactorRequired ? 1 : 0 };
}

export async function insertRole(db: Db, data: RoleWrite, now: string): Promise<number> {
  const row = await db
    .insertInto('roles')
    .values({ ...stored(data), key: null, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(db: Db, id: number, data: RoleWrite, now: string): Promise<boolean> {
  const result = await db
    .updateTable('roles')
    .set({ ...stored(data), updatedAt: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Users (of any profile) whose roleId names this role. */
export async function roleHolders(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('roleId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}
