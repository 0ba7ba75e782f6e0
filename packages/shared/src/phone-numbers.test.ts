import { describe, expect, it } from 'vitest';
import { parseRecipients } from './campaigns.js';
import { defaultCountryCodeFor, isCountryCode, ninthDigitChange, numberReader, readNumber, type NumberProblem } from './phone-numbers.js';

describe('numbers as Brazilians type them (default country code 55)', () => {
  // [typed, WhatsApp form, what the ninth-digit rule did]
  const sent: [string, string, string | undefined][] = [
    ['11977776666', '5511977776666', undefined],
    ['(11) 98765-1111', '5511987651111', undefined],
    ['(11) 8765-1111', '5511987651111', 'ninthAdded'],
    ['011 98765-1111', '5511987651111', undefined],
    ['21 3456-7890', '552134567890', undefined],
    ['(31) 98765-4321', '553187654321', 'ninthRemoved'],
    ['31 8765-4321', '553187654321', undefined],
    ['(85) 3456 7890', '558534567890', undefined],
    ['55 11 98765-1111', '5511987651111', undefined],
    ['+55 (11) 8765-1111', '5511987651111', 'ninthAdded'],
    ['+44 7700 900123', '447700900123', undefined],
    ['0044 7700 900123', '447700900123', undefined],
    ['447700900123', '447700900123', undefined],
    ['14155550100', '14155550100', undefined],
  ];
  it.each(sent)('%s → %s', (typed, number, ninth) => {
    const read = readNumber(typed, { countryCode: '55' });
    expect(read.number).toBe(number);
    expect(ninthDigitChange(read)).toBe(ninth);
  });

  const ambiguous: [string, NumberProblem][] = [
    ['98765-1111', 'noAreaCode'],
    ['8765-1111', 'noAreaCode'],
    ['1234567', 'tooShort'],
    ['1234567890123456', 'tooLong'],
    ['55119876543210', 'tooLong'],
    ['5511887654321', 'tooLong'],
    ['+55 09 8765-4321', 'unknownArea'],
    ['0001234567', 'unknownArea'],
    ['abc', 'notANumber'],
    ['11 9876x1111', 'notANumber'],
    ['', 'notANumber'],
  ];
  it.each(ambiguous)('%s stays ambiguous (%s): no number', (typed, problem) => {
    expect(readNumber(typed, { countryCode: '55' })).toEqual({ number: undefined, problem });
  });

  it('the phone network keeps every mobile’s ninth digit; whaticket’s routes only get the country code', () => {
    expect(readNumber('(31) 8765-4321', { countryCode: '55', rule: 'phone' }).number).toBe('5531987654321');
    expect(readNumber('(31) 98765-4321', { countryCode: '55', rule: 'phone' }).number).toBe('5531987654321');
    expect(readNumber('5531987654321', { countryCode: '55', rule: 'countryCodeOnly' }).number).toBe('5531987654321');
    expect(readNumber('551187654321', { countryCode: '55', rule: 'countryCodeOnly' }).number).toBe('551187654321');
    expect(readNumber('11977776666', { countryCode: '55', rule: 'countryCodeOnly' })).toEqual({ number: '5511977776666', changes: ['countryCode'] });
  });

  it('another default country code is put in front (a trunk 0 goes), unless the number has it or a +', () => {
    expect(readNumber('07700 900123', { countryCode: '44' }).number).toBe('447700900123');
    expect(readNumber('447700900123', { countryCode: '44' }).number).toBe('447700900123');
    expect(readNumber('+55 11 98765-1111', { countryCode: '44' }).number).toBe('5511987651111');
  });

  it('a Portuguese install defaults to 55; the setting takes 1 to 3 digits or nothing', () => {
    expect(defaultCountryCodeFor('pt')).toBe('55');
    expect(defaultCountryCodeFor('en')).toBe('');
    expect(defaultCountryCodeFor('es')).toBe('');
    expect(['55', '1', '351', ''].every(isCountryCode)).toBe(true);
    expect(['055', '5555', '+55', 'br'].some(isCountryCode)).toBe(false);
  });

  it('a bulk list says which lines the ninth digit changed and which are not numbers', () => {
    const parsed = parseRecipients('11977776666\n(11) 8765-1111\n98765-1111\n5511987651111', numberReader('55'));
    expect(parsed.recipients).toEqual([
      { input: '11977776666', number: '5511977776666' },
      { input: '(11) 8765-1111', number: '5511987651111', ninth: 'ninthAdded' },
      { input: '98765-1111', number: undefined, problem: 'noAreaCode' },
    ]);
    expect(parsed.duplicates).toBe(1);
  });
});
