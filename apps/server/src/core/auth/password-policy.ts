/**
 * The password policy beyond the shared schema's lengths: none of the most common passwords
 * (the ~49,000 of @zxcvbn-ts/language-common, a maintained list read offline). Compared without
 * case, so 'Senha123' is as common as 'senha123'.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@zapdesk/shared/schemas';
import { AppError } from '../errors.js';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}

/** Whether a password chosen today would be accepted (a stored one may predate the policy). */
export function meetsPasswordPolicy(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH && !isCommonPassword(password);
}

/** Refuses a common password where one is chosen; the lengths are the schema's. */
export function assertPasswordNotCommon(password: string): void {
  if (isCommonPassword(password)) throw new AppError('ERR_PASSWORD_TOO_COMMON', { fields: { password: 'TOO_COMMON' } });
}
