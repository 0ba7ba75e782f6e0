/**
 * Who is calling, as the route guards need it. The users and auth features answer these
 * questions and register the answers at start (app.ts): core/ never reaches into a feature.
 */
import type { Profile } from '@zapdesk/shared/domain';

export type AuthUser = { id: number; name: string; email: string; profile: Profile; tokenVersion: number };

export interface Identity {
  findUser(id: number): Promise<AuthUser | undefined>;
  /** Whether a sign-in (refresh family) was ended: its tokens no longer open anything. */
  isSignInRevoked(family: string): Promise<boolean>;
}
