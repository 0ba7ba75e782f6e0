/** The users and auth features' answers to core's Identity (who a token's user is, whether its sign-in ended). */
import type { Identity } from '../../core/auth/identity.js';
import type { Db, DbKind } from '../../core/db/database.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { findAuthSession } from '../users/users.repository.js';

export function createIdentity(db: Db, kind: DbKind): Identity {
  return {
    // One statement answers; SQLite keeps the answer until the next write (see memoUntilWrite:
    // a sign-out, a password change or a revoked sign-in is a write, so it takes effect on the
    // next request all the same). On PostgreSQL the memo's own check is a statement too, and
    // under writes it misses at every request: the answer is read each time.
    session: (userId, family) => {
      const read = () => findAuthSession(db, userId, family || undefined);
      return kind === 'sqlite' ? memoUntilWrite(db, `auth.session:${userId}:${family ?? ''}`, read) : read();
    },
  };
}
