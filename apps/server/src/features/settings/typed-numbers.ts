/**
 * Numbers typed or imported by people, read on the server (the authority) by the one rule of
 * phone-numbers.ts with the install's default country code (the defaultCountryCode setting).
 */
import { numberReader, readNumber, type NumberProblem, type NumberRule, type ReadNumber } from '@zapdesk/shared/phone-numbers';
import type { ValidationCode } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { getSettingValue } from './settings.repository.js';

export function defaultCountryCode(ctx: AppContext): Promise<string> {
  return getSettingValue(ctx.db, 'defaultCountryCode');
}

/** The reader of typed lines for `rule`, with today's default country code. */
export async function typedNumberReader(ctx: AppContext, rule: NumberRule = 'whatsapp'): Promise<(typed: string) => ReadNumber> {
  return numberReader(await defaultCountryCode(ctx), rule);
}

/** The field error a typed number's problem reads as (translated by the web app). */
export const PROBLEM_CODES: Record<NumberProblem, ValidationCode> = {
  notANumber: 'DIGITS_ONLY',
  tooShort: 'TOO_SHORT',
  tooLong: 'TOO_LONG',
  noAreaCode: 'NO_AREA_CODE',
  unknownArea: 'UNKNOWN_AREA',
};

/** One typed number by `rule`; one that stays ambiguous is a 400 on `field`, nothing stored. */
export async function typedNumber(ctx: AppContext, typed: string, options: { rule?: NumberRule; field?: string } = {}): Promise<string> {
  const read = readNumber(typed, { countryCode: await defaultCountryCode(ctx), rule: options.rule ?? 'whatsapp' });
  if (read.number === undefined)
    throw new AppError('ERR_VALIDATION', { message: `${options.field ?? 'number'}: not a phone number (${read.problem})`, fields: { [options.field ?? 'number']: PROBLEM_CODES[read.problem] } });
  return read.number;
}
