/** The users and auth features' answers to core's Identity (who a token's user is, whether its sign-in ended). */
import type { Identity } from '../../core/auth/identity.js';
import type { Db } from '../../core/db/database.js';
import { findAuthUserById } from '../users/users.repository.js';
import { findFamily } from './refresh-families.repository.js';

export function createIdentity(db: Db): Identity {
  return {
    findUser: (id) => findAuthUserById(db, id),
    isSignInRevoked: async (family) => {
      const found = await findFamily(db, family);
      return !found || found.revokedAt !== null;
    },
  };
}
