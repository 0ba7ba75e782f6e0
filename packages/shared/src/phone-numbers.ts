/**
 * Phone numbers as people type them: the one rule for every place a number is typed or imported
 * (bulk sends, contacts and their CSV import, new tickets, group participants, SMS and calls).
 *
 * 1. The default country code (the `defaultCountryCode` setting; 55 on a Portuguese install) is
 *    put in front of a number typed without one: `11977776666` and `(11) 98765-1111` become
 *    `5511977776666` and `5511987651111`. A number starting with + (or 00) is taken as written.
 * 2. Brazil (55): WhatsApp knows a mobile with an area code up to 30 with the ninth digit (a 9
 *    before the last 8 digits) and one above 30 without it; the phone network (SMS, calls) knows
 *    every mobile with it. Landlines (last 8 digits starting with 2 to 5) are never changed.
 * 3. What stays ambiguous (too short, too long, no area code, an unknown area code, letters) has
 *    no number: it is listed for the user and never sent.
 */

/** What the rule did to a typed number: shown to the user when the ninth digit changed. */
export type NumberChange = 'countryCode' | 'ninthAdded' | 'ninthRemoved';
/** Why a typed line is not a number. */
export type NumberProblem = 'notANumber' | 'tooShort' | 'tooLong' | 'noAreaCode' | 'unknownArea';
export const NUMBER_PROBLEMS: readonly NumberProblem[] = ['notANumber', 'tooShort', 'tooLong', 'noAreaCode', 'unknownArea'];

export type ReadNumber = { number: string; changes: NumberChange[]; problem?: undefined } | { number: undefined; changes?: undefined; problem: NumberProblem };

/**
 * whatsapp: the form WhatsApp knows (bulk sends, contacts, tickets, groups); phone: the phone
 * network's (SMS, calls); countryCodeOnly: the default country code and nothing else (whaticket's
 * integration routes, which send full numbers and expect them kept as sent).
 */
export type NumberRule = 'whatsapp' | 'phone' | 'countryCodeOnly';

export const BRAZIL = '55';

/** A country code as the setting takes it: 1 to 3 digits, not starting with 0; '' for none. */
export function isCountryCode(value: string): boolean {
  return value === '' || /^[1-9]\d{0,2}$/.test(value);
}

/** The default country code of a new install in this language: Brazil's for Portuguese, none otherwise. */
export function defaultCountryCodeFor(language: string): string {
  return language === 'pt' ? BRAZIL : '';
}

function validArea(area: string): boolean {
  return /^[1-9][1-9]$/.test(area);
}

/** A Brazilian number without the country code: area code + 8 digits (landline or old mobile) or + 9 then 8 digits (mobile). */
function isBrazilianNational(digits: string): boolean {
  const area = digits.slice(0, 2);
  if (!validArea(area)) return false;
  if (digits.length === 10) return /^[2-9]/.test(digits.slice(2));
  return digits.length === 11 && digits[2] === '9';
}

function withCountryCode(digits: string, countryCode: string): { digits: string; added: boolean; problem?: NumberProblem } {
  if (countryCode === BRAZIL) {
    // 0 + area code is how a call to another city is dialled: the 0 goes.
    const national = digits.startsWith('0') ? digits.slice(1) : digits;
    if (isBrazilianNational(national)) return { digits: BRAZIL + national, added: true };
    if (national.length === 8 || national.length === 9) return { digits, added: false, problem: 'noAreaCode' };
    return { digits, added: false };
  }
  if (digits.startsWith(countryCode)) return { digits, added: false };
  const national = digits.startsWith('0') ? digits.slice(1) : digits;
  return { digits: countryCode + national, added: true };
}

function brazilianForm(digits: string, rule: NumberRule, changes: NumberChange[]): ReadNumber {
  if (digits.length < 12) return { number: undefined, problem: 'tooShort' };
  if (digits.length > 13) return { number: undefined, problem: 'tooLong' };
  const area = digits.slice(2, 4);
  if (!validArea(area)) return { number: undefined, problem: 'unknownArea' };
  const local = digits.slice(4);
  if (local.length === 9 && local[0] !== '9') return { number: undefined, problem: 'tooLong' };
  if (rule === 'countryCodeOnly') return { number: digits, changes };
  const mobile8 = local.length === 8 && /^[6-9]/.test(local);
  const addsNinth = mobile8 && (rule === 'phone' || Number(area) <= 30);
  if (addsNinth) return { number: `${BRAZIL}${area}9${local}`, changes: [...changes, 'ninthAdded'] };
  if (rule === 'whatsapp' && local.length === 9 && Number(area) > 30) return { number: `${BRAZIL}${area}${local.slice(1)}`, changes: [...changes, 'ninthRemoved'] };
  return { number: digits, changes };
}

/** A typed number read by `rule`, with `countryCode` as the default ('' for none). */
export function readNumber(typed: string, options: { countryCode: string; rule?: NumberRule }): ReadNumber {
  const rule = options.rule ?? 'whatsapp';
  const text = typed.trim();
  if (!/^\+?[\d\s().\-/]+$/.test(text)) return { number: undefined, problem: 'notANumber' };
  let digits = text.replace(/\D/g, '');
  if (digits === '') return { number: undefined, problem: 'notANumber' };
  const changes: NumberChange[] = [];
  const international = text.startsWith('+') || digits.startsWith('00');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (!international && options.countryCode !== '') {
    const prefixed = withCountryCode(digits, options.countryCode);
    if (prefixed.problem) return { number: undefined, problem: prefixed.problem };
    digits = prefixed.digits;
    if (prefixed.added) changes.push('countryCode');
  }
  if (digits.startsWith('0')) return { number: undefined, problem: 'unknownArea' };
  if (digits.length < 8) return { number: undefined, problem: 'tooShort' };
  if (digits.length > 15) return { number: undefined, problem: 'tooLong' };
  if (digits.startsWith(BRAZIL)) return brazilianForm(digits, rule, changes);
  return { number: digits, changes };
}

/** Digits only, as written (whaticket's stored numbers, which already carry their country code). */
export function normalizeNumber(raw: string): string {
  return raw.replace(/\D/g, '');
}

/** Whether the ninth digit was put in or taken out (what the screen explains). */
export function ninthDigitChange(read: ReadNumber): 'ninthAdded' | 'ninthRemoved' | undefined {
  return read.changes?.find((c): c is 'ninthAdded' | 'ninthRemoved' => c === 'ninthAdded' || c === 'ninthRemoved');
}

/** A reader for one default country code and rule (what a bulk page or the server's parsing takes). */
export function numberReader(countryCode: string, rule: NumberRule = 'whatsapp'): (typed: string) => ReadNumber {
  return (typed) => readNumber(typed, { countryCode, rule });
}

/**
 * The forms one Brazilian mobile number takes (with and without the 9 before the last 8 digits):
 * a contact may be stored as the network reported it, which is not always the bulk rule's form.
 */
export function numberVariants(number: string): string[] {
  if (!number.startsWith(BRAZIL)) return [number];
  if (number.length === 13 && number[4] === '9') return [number, number.slice(0, 4) + number.slice(5)];
  if (number.length === 12) return [number, `${number.slice(0, 4)}9${number.slice(4)}`];
  return [number];
}
