import { hashPassword, verifyPassword } from '../../core/auth/password.js';
import type { AppContext } from '../../core/context.js';
import { forgetInitialAdminPassword, newInitialAdminPassword } from '../../core/secrets.js';
import { nowIso } from '../../core/time.js';
import { countUsers, findCredentialsByEmail, insertUser } from './users.repository.js';

/** The first admin's login; `password` only when it was generated and still opens the account. */
export type AdminLogin = { email: string; password: string | undefined; fromEnvironment: boolean };

/**
 * On first start (no users at all) creates the admin from ADMIN_EMAIL and ADMIN_PASSWORD, or a
 * generated password kept in secrets.json. A password given in ADMIN_PASSWORD is never handed
 * out to be printed; a generated one only until it is changed, when it also leaves secrets.json.
 */
export async function ensureAdmin(ctx: AppContext): Promise<AdminLogin> {
  const email = ctx.config.adminEmail;
  const fromEnvironment = !ctx.secrets.adminPasswordGenerated;
  let password = ctx.secrets.adminPassword;
  if ((await countUsers(ctx.db)) === 0) {
    password ??= newInitialAdminPassword(ctx.config);
    await insertUser(ctx.db, { name: 'Admin', email, profile: 'admin', whatsappId: null, roleId: null, passwordHash: await hashPassword(password) }, nowIso());
  }
  if (fromEnvironment || password === undefined) return { email, password: undefined, fromEnvironment };
  const stillValid = await opensAdminAccount(ctx, password);
  if (!stillValid) forgetInitialAdminPassword(ctx.config);
  return { email, password: stillValid ? password : undefined, fromEnvironment };
}

async function opensAdminAccount(ctx: AppContext, password: string): Promise<boolean> {
  const creds = await findCredentialsByEmail(ctx.db, ctx.config.adminEmail);
  return creds !== undefined && (await verifyPassword(creds.passwordHash, password));
}

/**
 * After a password change: a generated first password that no longer opens the admin's account
 * leaves secrets.json at once (the next start would print nothing either way).
 */
export async function forgetChangedInitialAdminPassword(ctx: AppContext): Promise<void> {
  const generated = ctx.secrets.adminPasswordGenerated ? ctx.secrets.adminPassword : undefined;
  if (generated === undefined || (await opensAdminAccount(ctx, generated))) return;
  forgetInitialAdminPassword(ctx.config);
}
