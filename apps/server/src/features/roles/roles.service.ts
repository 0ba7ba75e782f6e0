/**
 * Roles as admins manage them. The built-in agent role keeps its name and cannot be deleted:
 * changing its permissions is how an admin narrows what every plain user may do at once. A
 * role that users hold cannot be deleted (ERR_ROLE_IN_USE): moving them silently to another
 * role could give them powers nobody chose.
 */
import { PERMISSIONS } from '@zapdesk/shared/permissions';
import type { TRole, TRoleInput } from '@zapdesk/shared/roles';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import * as repo from './roles.repository.js';

type RoleData = Required<TRoleInput>;

export async function listRoles(ctx: AppContext): Promise<{ roles: TRole[] }> {
  return { roles: await repo.listRoles(ctx.db) };
}

export async function getRole(ctx: AppContext, id: number): Promise<TRole> {
  const role = await repo.findRoleById(ctx.db, id);
  if (!role) throw new AppError('ERR_NO_ROLE_FOUND');
  return role;
}

function normalized(input: RoleData): repo.RoleWrite {
  return { name: input.name, permissions: PERMISSIONS.filter((p) => input.permissions.includes(p)), twoFactorRequired: input.twoFactorRequired };
}

async function writeUnique(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isUniqueViolation(error, { table: 'roles', column: 'name' })) throw new AppError('ERR_ROLE_NAME_TAKEN', { fields: { name: 'INVALID' } });
    throw error;
  }
}

export async function createRole(ctx: AppContext, input: RoleData): Promise<TRole> {
  if (await repo.nameTaken(ctx.db, input.name)) throw new AppError('ERR_ROLE_NAME_TAKEN', { fields: { name: 'INVALID' } });
  let id = 0;
  await writeUnique(async () => {
    id = await repo.insertRole(ctx.db, normalized(input), nowIso());
  });
  return getRole(ctx, id);
}

export async function updateRole(ctx: AppContext, id: number, input: RoleData): Promise<TRole> {
  const current = await getRole(ctx, id);
  if (current.key !== null && input.name !== current.name) throw new AppError('ERR_ROLE_BUILT_IN', { fields: { name: 'INVALID' } });
  if (await repo.nameTaken(ctx.db, input.name, id)) throw new AppError('ERR_ROLE_NAME_TAKEN', { fields: { name: 'INVALID' } });
  await writeUnique(async () => {
    if (!(await repo.updateRole(ctx.db, id, normalized(input), nowIso()))) throw new AppError('ERR_NO_ROLE_FOUND');
  });
  return getRole(ctx, id);
}

export async function deleteRole(ctx: AppContext, id: number): Promise<void> {
  const current = await getRole(ctx, id);
  if (current.key !== null) throw new AppError('ERR_ROLE_BUILT_IN');
  if ((await repo.roleHolders(ctx.db, id)) > 0) throw new AppError('ERR_ROLE_IN_USE');
  await repo.deleteRole(ctx.db, id);
}
