import { isAdminProfile, type Profile } from '@zapdesk/shared/domain';
import type { z } from 'zod';
import type { TListQuery, TOnlineUsers, TUser, TUserCreate, ZUserUpdateSchema } from '@zapdesk/shared/schemas';
import { hashPassword, verifyPassword } from '../../core/auth/password.js';
import { assertPasswordNotCommon } from '../../core/auth/password-policy.js';
import { revokeFamiliesOfUser } from '../auth/refresh-families.repository.js';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { missingQueueIds } from '../queues/queues.repository.js';
import { whatsappExists } from '../whatsapps/whatsapps.repository.js';
import { forgetChangedInitialAdminPassword } from './bootstrap-admin.js';
import { findBuiltInRoleId, findRoleById } from '../roles/roles.repository.js';
import * as repo from './users.repository.js';

type Actor = repo.AuthUser;

export function listUsers(ctx: AppContext, query: TListQuery) {
  return repo.listUsers(ctx.db, query);
}

/** Who is online now: a user with the app open somewhere (a realtime socket on any node). */
export async function listOnlineUsers(ctx: AppContext): Promise<TOnlineUsers> {
  return { userIds: await ctx.presence.onlineUserIds() };
}

export async function getUser(ctx: AppContext, actor: Actor, id: number): Promise<TUser> {
  if (!isAdminProfile(actor.profile) && actor.id !== id) throw new AppError('ERR_NO_PERMISSION');
  const user = await repo.findUserById(ctx.db, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

async function checkReferences(ctx: AppContext, data: { queueIds?: number[] | undefined; whatsappId?: number | null | undefined; roleId?: number | null | undefined }) {
  if (data.queueIds && (await missingQueueIds(ctx.db, data.queueIds)).length > 0) throw new AppError('ERR_NO_QUEUE_FOUND');
  if (data.whatsappId != null && !(await whatsappExists(ctx.db, data.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  if (data.roleId != null && !(await findRoleById(ctx.db, data.roleId))) throw new AppError('ERR_NO_ROLE_FOUND', { fields: { roleId: 'INVALID' } });
}

/** The stored roleId: null stands for the built-in agent role, so naming that role stores null too. */
async function storedRoleId(ctx: AppContext, roleId: number | null | undefined): Promise<number | null> {
  if (roleId == null) return null;
  return roleId === (await findBuiltInRoleId(ctx.db)) ? null : roleId;
}

/** Creates a user; signup passes profile 'user' and no queues. */
export async function createUser(
  ctx: AppContext,
  input: Required<Omit<TUserCreate, 'whatsappId' | 'roleId'>> & { whatsappId?: number | null | undefined; roleId?: number | null | undefined },
): Promise<TUser> {
  await checkReferences(ctx, input);
  if (await repo.emailTaken(ctx.db, input.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  const roleId = await storedRoleId(ctx, input.roleId);
  const now = nowIso();
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const newId = await repo.insertUser(trx, { name: input.name, email: input.email, profile: input.profile, whatsappId: input.whatsappId ?? null, roleId, passwordHash }, now);
      await repo.setUserQueues(trx, newId, input.queueIds);
      return newId;
    });
  } catch (error) {
    if (isUniqueViolation(error, { table: 'users', column: 'email' })) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    throw error;
  }
  const user = await repo.findUserById(ctx.db, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  ctx.events.publish('user.saved', { user, created: true });
  return user;
}

function sameIds(a: number[], b: number[]): boolean {
  const sa = [...new Set(a)].sort();
  const sb = [...new Set(b)].sort();
  return sa.length === sb.length && sa.every((v, i) => v === sb[i]);
}

/**
 * Admins edit anyone. A user edits their own name, email and password only: sending another
 * profile, queues or default connection is refused rather than silently ignored.
 */
export async function updateUser(ctx: AppContext, actor: Actor, id: number, input: z.output<typeof ZUserUpdateSchema>): Promise<{ user: TUser; ownPasswordChanged: boolean }> {
  const actorIsAdmin = isAdminProfile(actor.profile);
  if (!actorIsAdmin && actor.id !== id) throw new AppError('ERR_NO_PERMISSION');
  const current = await repo.findUserById(ctx.db, id);
  if (!current) throw new AppError('ERR_NO_USER_FOUND');

  if (!actorIsAdmin) {
    const profileChanged = input.profile !== undefined && input.profile !== current.profile;
    const queuesChanged =
      input.queueIds !== undefined &&
      !sameIds(
        input.queueIds,
        current.queues.map((q) => q.id),
      );
    const whatsappChanged = input.whatsappId !== undefined && input.whatsappId !== current.whatsappId;
    const roleChanged = input.roleId !== undefined && (await storedRoleId(ctx, input.roleId)) !== current.roleId;
    if (profileChanged || queuesChanged || whatsappChanged || roleChanged) throw new AppError('ERR_NO_PERMISSION');
  }
  const profile: Profile = actorIsAdmin ? (input.profile ?? current.profile) : current.profile;
  if (current.profile === 'admin' && profile !== 'admin' && (await repo.countAdmins(ctx.db)) <= 1) {
    throw new AppError('ERR_LAST_ADMIN');
  }
  await checkReferences(ctx, input);
  if (await repo.emailTaken(ctx.db, input.email, id)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');

  const passwordChanged = typeof input.password === 'string' && input.password.length > 0;
  if (passwordChanged && input.password) assertPasswordNotCommon(input.password);
  // One's own password is changed by who knows it: a stolen session alone cannot take the account.
  if (passwordChanged && actor.id === id) {
    const stored = await repo.findPasswordHash(ctx.db, id);
    if (!stored || !input.currentPassword || !(await verifyPassword(stored, input.currentPassword))) {
      throw new AppError('ERR_INVALID_CREDENTIALS', { message: 'The current password is not right.', fields: { currentPassword: 'INVALID' } });
    }
  }
  const passwordHash = passwordChanged && input.password ? await hashPassword(input.password) : undefined;
  const roleId = actorIsAdmin && input.roleId !== undefined ? await storedRoleId(ctx, input.roleId) : current.roleId;
  const now = nowIso();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateUser(
        trx,
        id,
        {
          name: input.name,
          email: input.email,
          profile,
          whatsappId: input.whatsappId === undefined ? current.whatsappId : input.whatsappId,
          roleId,
          ...(passwordHash ? { passwordHash } : {}),
          bumpTokenVersion: passwordChanged,
        },
        now,
      );
      if (actorIsAdmin && input.queueIds) await repo.setUserQueues(trx, id, input.queueIds);
    });
  } catch (error) {
    if (isUniqueViolation(error, { table: 'users', column: 'email' })) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    throw error;
  }
  const user = await repo.findUserById(ctx.db, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  if (passwordChanged) {
    await revokeFamiliesOfUser(ctx.db, id, now);
    ctx.events.publish('user.sessionsRevoked', { userId: id });
    await forgetChangedInitialAdminPassword(ctx);
  }
  ctx.events.publish('user.saved', { user, created: false });
  return { user, ownPasswordChanged: passwordChanged && actor.id === id };
}

export async function deleteUser(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  if (actor.id === id) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const target = await repo.findAuthUserById(ctx.db, id);
  if (!target) throw new AppError('ERR_NO_USER_FOUND');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.returnOpenTicketsOfUser(trx, id, nowIso());
    await repo.deleteUser(trx, id);
  });
  ctx.events.publish('user.sessionsRevoked', { userId: id });
  ctx.events.publish('user.deleted', { userId: id });
}
