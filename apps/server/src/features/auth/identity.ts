/** The users and auth features' answers to core's Identity (who a token's user is, whether its sign-in ended). */
import type { Identity } from '../../core/auth/identity.js';
import type { Db } from '../../core/db/database.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { findAuthSession } from '../users/users.repository.js';

export function createIdentity(db: Db): Identity {
  return {
    // Read again only after a write (see memoUntilWrite): a sign-out, a password change or a
    // revoked sign-in is a write, so it takes effect on the next request all the same.
    session: (userId, family) => memoUntilWrite(db, `auth.session:${userId}:${family ?? ''}`, () => findAuthSession(db, userId, family || undefined)),
  };
}
