/** TOTP (RFC 6238) through otpauth: the secrets, the otpauth:// link, and which time step a code is of. */
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR } from '@zapdesk/shared/two-factor';

const ISSUER = 'ZapDesk';

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: TWO_FACTOR.codeDigits, period: TWO_FACTOR.periodSeconds });
}

/** 160 random bits, as authenticator apps expect (RFC 4226), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The link an authenticator app reads from the QR code: the product, the account, the secret. */
export function otpauthUrl(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** Whether the input is shaped like an app's code (digits, spaces between allowed). */
export function looksLikeTotpCode(input: string): boolean {
  return new RegExp(`^\\d{${TWO_FACTOR.codeDigits}}$`).test(input.replace(/\s/g, ''));
}

/** The time step of the code, if it is the code of a step within the window around now. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!looksLikeTotpCode(token)) return undefined;
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token, timestamp: now, window: TWO_FACTOR.windowSteps });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

// No 0/o, 1/l/i: the codes are read off paper and typed.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code: 10 characters of a 31-letter alphabet (about 50 bits), shown as xxxxx-xxxxx. */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** How a recovery code is kept: typed in any case, with or without the dash and spaces. */
export function recoveryCodeHash(input: string): string {
  const normalized = input.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
