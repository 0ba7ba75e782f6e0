/**
 * Who must sign in with a second factor. The one place that answers it: the sign-in walks such
 * a user through the set-up, and they may not turn it off. TWO_FACTOR_REQUIRED says who today
 * (nobody, the admins, everyone) for the whole install; a role that asks for it (the roles page's
 * 'Exigir verificação em duas etapas') adds its plain users. Admins hold no role: the setting
 * decides for them.
 */
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { AuthUser } from '../../core/auth/identity.js';
import type { AppContext } from '../../core/context.js';
import { roleRequiresTwoFactor } from '../users/users.repository.js';

export async function twoFactorRequiredFor(ctx: AppContext, user: Pick<AuthUser, 'id' | 'profile'>): Promise<boolean> {
  const rule = ctx.config.twoFactorRequired;
  if (rule === 'everyone') return true;
  if (isAdminProfile(user.profile)) return rule === 'admins';
  return roleRequiresTwoFactor(ctx.db, user.id);
}
