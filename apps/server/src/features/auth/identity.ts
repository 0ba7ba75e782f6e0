/** The users and auth features' answers to core's Identity (who a token's user is, whether its sign-in ended). */
import type { Identity } from '../../core/auth/identity.js';
import type { Db } from '../../core/db/database.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { findAuthUserById } from '../users/users.repository.js';
import { findFamily } from './refresh-families.repository.js';

export function createIdentity(db: Db): Identity {
  return {
    // Read again only after a write (see memoUntilWrite): a sign-out, a password change or a
    // revoked sign-in is a write, so it takes effect on the next request all the same.
    session: (userId, family) =>
      memoUntilWrite(db, `auth.session:${userId}:${family ?? ''}`, async () => {
        const [user, found] = await Promise.all([findAuthUserById(db, userId), family ? findFamily(db, family) : undefined]);
        return { user, revoked: family !== undefined && (!found || found.revokedAt !== null) };
      }),
  };
}
