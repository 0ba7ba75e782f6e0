import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** bcrypt's modular-crypt form ($2a$, $2b$ or $2y$, cost, 53 characters): whaticket's hashes, carried by the importer. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** True for a hash this server can check a password against (argon2, or an imported bcrypt hash). */
export function isVerifiableHash(passwordHash: string): boolean {
  return BCRYPT_HASH.test(passwordHash) || /^\$argon2(id|i|d)\$/.test(passwordHash);
}

/** True for an imported hash that the first successful sign-in replaces with an argon2 one. */
export function isLegacyHash(passwordHash: string): boolean {
  return BCRYPT_HASH.test(passwordHash);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    if (BCRYPT_HASH.test(passwordHash)) return await bcrypt.compare(password, passwordHash);
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
