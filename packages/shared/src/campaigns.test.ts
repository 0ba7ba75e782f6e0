import { describe, expect, it } from 'vitest';
import { ZCampaignCreateSchema, parseRecipients } from './campaigns.js';
import { numberReader, numberVariants, readNumber } from './phone-numbers.js';

describe('the bulk pages’ number rule (spec 5, Brazilian numbers)', () => {
  // [typed, sent as]
  const cases: [string, string | undefined][] = [
    // Area codes up to 30: a 9 before the last 8 digits.
    ['551187654321', '5511987654321'],
    ['5511987654321', '5511987654321'],
    ['+55 (11) 8765-4321', '5511987654321'],
    ['55 21 98765 4321', '5521987654321'],
    ['552887654321', '5528987654321'],
    // A landline (last 8 digits starting 2 to 5) keeps its 8 digits.
    ['551134567890', '551134567890'],
    ['552487654321', '5524987654321'],
    // Above 30: the last 8 digits without the 9.
    ['5531987654321', '553187654321'],
    ['553187654321', '553187654321'],
    ['5585987654321', '558587654321'],
    ['5599912345678', '559912345678'],
    // Not a Brazilian phone number: wrong length, no area code.
    ['55119876543', undefined],
    ['55119876543210', undefined],
    ['550987654321', undefined],
    ['553087654321', undefined],
    // Other countries: as typed (digits only).
    ['447700900123', '447700900123'],
    ['+1 (415) 555-0100', '14155550100'],
    ['351912345678', '351912345678'],
    ['5491123456789', '5491123456789'],
    // Not a phone number at all.
    ['1234567', undefined],
    ['1234567890123456', undefined],
    ['abc', undefined],
    ['', undefined],
  ];
  it.each(cases)('%s → %s (no default country code)', (typed, sent) => {
    expect(readNumber(typed, { countryCode: '' }).number).toBe(sent);
  });

  it('knows both forms of a Brazilian mobile number, to find a contact stored either way', () => {
    expect(numberVariants('5511987654321')).toEqual(['5511987654321', '551187654321']);
    expect(numberVariants('553187654321')).toEqual(['553187654321', '5531987654321']);
    expect(numberVariants('447700900123')).toEqual(['447700900123']);
  });
});

describe('parseRecipients', () => {
  it('keeps one number per line in the order typed, counting blank lines and repeats (after the rule)', () => {
    const parsed = parseRecipients('5511987654321\r\n\n551187654321\n  447700900123 \nabc\nabc\n\n', numberReader(''));
    expect(parsed.recipients).toEqual([
      { input: '5511987654321', number: '5511987654321' },
      { input: '447700900123', number: '447700900123' },
      { input: 'abc', number: undefined, problem: 'notANumber' },
    ]);
    expect(parsed).toMatchObject({ blank: 3, duplicates: 2 });
  });
});

describe('ZCampaignCreateSchema', () => {
  const base = { kind: 'text', whatsappId: 1, numbers: '447700900123', message: 'Oi', minDelay: 0, maxDelay: 0 };
  it('takes 0–0 seconds and refuses a maximum below the minimum', () => {
    expect(ZCampaignCreateSchema.safeParse(base).success).toBe(true);
    const bad = ZCampaignCreateSchema.safeParse({ ...base, minDelay: 10, maxDelay: 5 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['maxDelay'], message: 'LESS_THAN_MIN' });
  });
  it('needs the field of its kind: a text, a URL, a path, a voice note’s file', () => {
    expect(ZCampaignCreateSchema.safeParse({ ...base, message: '  ' }).success).toBe(false);
    expect(ZCampaignCreateSchema.safeParse({ ...base, kind: 'mediaUrl' }).success).toBe(false);
    expect(ZCampaignCreateSchema.safeParse({ ...base, kind: 'mediaPath', mediaPath: 'a.png' }).success).toBe(true);
    expect(ZCampaignCreateSchema.safeParse({ ...base, kind: 'voice', message: '' }).success).toBe(false);
    expect(ZCampaignCreateSchema.safeParse({ ...base, kind: 'voice', message: '', mediaUrl: 'https://x/y.ogg' }).success).toBe(true);
  });
});
