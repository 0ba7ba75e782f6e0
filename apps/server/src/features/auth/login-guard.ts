/**
 * Who may try a password now. Only failed sign-ins are counted (LOGIN_RATE_LIMIT a minute each):
 * - per account and address (per account and browser for the owner's known browser): anyone's
 *   own typos, the attacker's guesses;
 * - per address, whatever the accounts: one address cannot try many accounts;
 * - per account, from addresses that are not the owner's: many addresses cannot spray one account.
 * The last two never apply to the owner's known places, the address of the account's last
 * successful sign-in and a browser that signed in before (device-marker.ts), so nobody can keep
 * the owner out by failing on purpose. A new address waits at most a minute while the account
 * is under attack. A successful sign-in clears its own account-and-address count.
 */
import type { AppContext } from '../../core/context.js';
import { FailureThrottle } from '../../core/http/failure-throttle.js';
import { nowIso } from '../../core/time.js';
import type { TFailedAttempts } from '@zapdesk/shared/schemas';
import { findCredentialsByEmail } from '../users/users.repository.js';
import { findSignInRecord, recordFailedSignIn, recordSuccessfulSignIn } from './sign-in-records.repository.js';

/** One sign-in attempt: the account (the e-mail as typed, normalised), the client address, the browser's marker. */
export type LoginAttempt = { account: string; address: string; deviceUserId: number | undefined };

const WINDOW_MS = 60_000;

export type LoginGuard = {
  /** Seconds the attempt must wait (429 with Retry-After), or 0 when it may be tried. */
  waitFor(attempt: LoginAttempt): Promise<number>;
  failed(attempt: LoginAttempt, userId: number | undefined): Promise<void>;
  /** Clears the attempt's own count; answers the failed attempts since the last sign-in, if any. */
  succeeded(attempt: LoginAttempt, userId: number): Promise<TFailedAttempts | undefined>;
};

export function createLoginGuard(ctx: AppContext): LoginGuard {
  const options = { max: ctx.config.loginRateLimit, windowMs: WINDOW_MS };
  const perAccountAddress = new FailureThrottle(ctx.failures, { name: 'login-account-address', ...options });
  const perAddress = new FailureThrottle(ctx.failures, { name: 'login-address', ...options });
  const perAccount = new FailureThrottle(ctx.failures, { name: 'login-account', ...options });

  const knownBrowser = (attempt: LoginAttempt, userId: number | undefined) => userId !== undefined && attempt.deviceUserId === userId;
  // The owner's browser is counted apart from its address: an attacker sharing the address (an
  // office, a carrier's NAT) does not use up the owner's attempts.
  const ownKey = (attempt: LoginAttempt, userId: number | undefined) => (knownBrowser(attempt, userId) ? `${attempt.account}|browser` : `${attempt.account}|${attempt.address}`);
  const known = async (attempt: LoginAttempt, userId: number | undefined): Promise<boolean> => {
    if (userId === undefined) return false;
    if (knownBrowser(attempt, userId)) return true;
    return (await findSignInRecord(ctx.db, userId))?.lastSuccessAddress === attempt.address;
  };
  const userIdOf = async (attempt: LoginAttempt) => (await findCredentialsByEmail(ctx.db, attempt.account))?.id;

  return {
    async waitFor(attempt) {
      const userId = await userIdOf(attempt);
      const waits = [await perAccountAddress.blockedFor(ownKey(attempt, userId))];
      if (!(await known(attempt, userId))) waits.push(await perAddress.blockedFor(attempt.address), await perAccount.blockedFor(attempt.account));
      return Math.max(...waits);
    },
    async failed(attempt, userId) {
      await perAccountAddress.fail(ownKey(attempt, userId));
      if (!(await known(attempt, userId))) {
        await perAddress.fail(attempt.address);
        await perAccount.fail(attempt.account);
      }
      if (userId !== undefined) await recordFailedSignIn(ctx.db, userId, attempt.address, nowIso());
    },
    async succeeded(attempt, userId) {
      await perAccountAddress.reset(ownKey(attempt, userId));
      const record = await findSignInRecord(ctx.db, userId);
      await recordSuccessfulSignIn(ctx.db, userId, attempt.address, nowIso());
      if (!record || record.failedCount === 0 || !record.failedLastAt) return undefined;
      return { count: record.failedCount, lastAt: record.failedLastAt, lastAddress: record.failedLastAddress ?? '' };
    },
  };
}
