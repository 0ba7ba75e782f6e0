/**
 * The one place a permission is checked. Whoever calls (a signed-in user, the tool API's token,
 * a named token) is an actor carrying the set of permissions it holds; a route names the
 * permission it needs, and `assertPermission` answers 403 ERR_NO_PERMISSION without it.
 * Admins hold every permission; a plain user holds their role's (core/auth/identity.ts).
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { isAdminProfile, type Profile } from '@zapdesk/shared/domain';
import { isPermission, PERMISSIONS, type Permission } from '@zapdesk/shared/permissions';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { authenticate, currentUser } from '../http/auth-hooks.js';

export type PermissionHolder = { permissions: ReadonlySet<Permission> };

export const ALL_PERMISSIONS: ReadonlySet<Permission> = new Set(PERMISSIONS);

/** A user's permissions: every one for an admin, whatever their role; the role's for a plain user (unknown keys ignored). */
export function effectivePermissions(profile: Profile, granted: readonly string[]): ReadonlySet<Permission> {
  if (isAdminProfile(profile)) return ALL_PERMISSIONS;
  return new Set(granted.filter(isPermission));
}

export function hasPermission(actor: PermissionHolder, permission: Permission): boolean {
  return actor.permissions.has(permission);
}

export function assertPermission(actor: PermissionHolder, permission: Permission): void {
  if (!hasPermission(actor, permission)) throw new AppError('ERR_NO_PERMISSION');
}

/** A route guard: signed in (401/403 as `authenticate`), then holding `permission` (403 ERR_NO_PERMISSION). */
export function requirePermission(ctx: AppContext, permission: Permission): onRequestAsyncHookHandler {
  const auth = authenticate(ctx);
  return async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    await auth.call(this as never, request, reply);
    assertPermission(currentUser(request), permission);
  };
}
