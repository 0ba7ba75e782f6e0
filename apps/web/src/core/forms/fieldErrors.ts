import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { VALIDATION_CODES, type ValidationCode } from '@zapdesk/shared/schemas';
import { i18n } from '../../i18n/i18n';
import { ApiError } from '../api/ApiError';

export function isValidationCode(value: string): value is ValidationCode {
  return VALIDATION_CODES.some((code) => code === value);
}

/** The shared schemas report codes (TOO_SHORT, ...): this turns one into the translated text. */
export function fieldErrorText(error: Pick<FieldError, 'message'> | undefined): string | undefined {
  if (!error) return undefined;
  const code = error.message ?? 'INVALID';
  return i18n.t(`validation.${isValidationCode(code) ? code : 'INVALID'}`);
}

/** A password's error: 'too short' says how long it must be. */
export function passwordErrorText(error: Pick<FieldError, 'message'> | undefined): string | undefined {
  return error?.message === 'TOO_SHORT' ? i18n.t('passwordRules.tooShort') : fieldErrorText(error);
}

/** Puts the field codes of a server ERR_VALIDATION on the form. Returns true when any matched. */
export function applyServerFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): boolean {
  if (!(error instanceof ApiError)) return false;
  let matched = false;
  for (const [path, code] of Object.entries(error.fields)) {
    const field = fields.find((name) => name === path);
    if (field) {
      setError(field, { type: 'server', message: code });
      matched = true;
    }
  }
  return matched;
}

/** The spec delays form submits by 400ms. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
