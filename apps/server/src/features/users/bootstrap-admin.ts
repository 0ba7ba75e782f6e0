import { hashPassword, verifyPassword } from '../../core/auth/password.js';
import type { AppContext } from '../../core/context.js';
import { nowIso } from '../../core/time.js';
import { countUsers, findCredentialsByEmail, insertUser } from './users.repository.js';

export type AdminLogin = { email: string; password: string | undefined };

/**
 * On first start (no users at all) creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD.
 * Returns the login to print: the password only while it still opens the account.
 */
export async function ensureAdmin(ctx: AppContext): Promise<AdminLogin> {
  const email = ctx.config.adminEmail;
  const password = ctx.secrets.adminPassword;
  if ((await countUsers(ctx.db)) === 0) {
    await insertUser(ctx.db, { name: 'Admin', email, profile: 'admin', whatsappId: null, passwordHash: await hashPassword(password) }, nowIso());
  }
  const creds = await findCredentialsByEmail(ctx.db, email);
  const stillValid = creds !== undefined && (await verifyPassword(creds.passwordHash, password));
  return { email, password: stillValid ? password : undefined };
}
