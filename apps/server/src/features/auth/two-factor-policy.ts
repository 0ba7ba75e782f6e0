/**
 * Who must sign in with a second factor. The one place that answers it: the sign-in walks such
 * a user through the set-up, and they may not turn it off. TWO_FACTOR_REQUIRED says who today
 * (nobody, the admins, everyone); a rule per role joins here.
 */
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { AuthUser } from '../../core/auth/identity.js';
import type { AppContext } from '../../core/context.js';

export async function twoFactorRequiredFor(ctx: AppContext, user: Pick<AuthUser, 'id' | 'profile'>): Promise<boolean> {
  const rule = ctx.config.twoFactorRequired;
  return rule === 'everyone' || (rule === 'admins' && isAdminProfile(user.profile));
}
