/**
 * Who is calling, as the route guards need it. The users and auth features answer these
 * questions and register the answers at start (app.ts): core/ never reaches into a feature.
 */
import type { Profile } from '@zapdesk/shared/domain';
import type { Permission } from '@zapdesk/shared/permissions';

/**
 * `permissions`: what the user may use, resolved with the user (every permission for an admin,
 * the role's for a plain user: the built-in agent role's when `roleId` is null).
 */
export type AuthUser = { id: number; name: string; email: string; profile: Profile; tokenVersion: number; roleId: number | null; permissions: ReadonlySet<Permission> };

export interface Identity {
  /**
   * A token's user, and whether its sign-in (refresh family, when it has one) was ended: its
   * tokens no longer open anything. Asked on every authenticated request.
   */
  session(userId: number, family: string | undefined): Promise<{ user: AuthUser | undefined; revoked: boolean }>;
}
