import { describe, expect, it } from 'vitest';
import { LIMITS, QUEUE_COLORS, SETTING_KEYS, SETTINGS, TIME_CREATE_NEW_TICKET_OPTIONS, foldText, isAdminProfile } from './domain.js';
import { normalizeNumber } from './phone-numbers.js';
import { ERROR_CODES, ERROR_MESSAGES, ERROR_STATUS, isErrorCode } from './errors.js';

describe('QUEUE_COLORS', () => {
  it('holds the 51 preset colours, all distinct hex colours', () => {
    expect(QUEUE_COLORS).toHaveLength(51);
    expect(new Set(QUEUE_COLORS.map((c) => c.toUpperCase())).size).toBe(51);
    for (const color of QUEUE_COLORS) expect(color).toMatch(/^#[0-9A-F]{6}$/);
  });
});

describe('foldText', () => {
  it('lower-cases and strips accents, so joao finds João', () => {
    expect(foldText('João Conceição')).toBe('joao conceicao');
    expect(foldText('CAFÉ Ñandú Ümlaut àèìòù')).toBe('cafe nandu umlaut aeiou');
    expect(foldText('plain 123')).toBe('plain 123');
  });
});

describe('normalizeNumber and isAdminProfile', () => {
  it('keeps digits only and compares the profile case-insensitively', () => {
    expect(normalizeNumber('+55 (11) 98765-4321')).toBe('5511987654321');
    expect(isAdminProfile('Admin')).toBe(true);
    expect(isAdminProfile('user')).toBe(false);
  });
});

describe('error codes', () => {
  it('gives every code an HTTP error status and an English message', () => {
    expect(ERROR_CODES.length).toBeGreaterThan(0);
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^ERR_[A-Z_]+$/);
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
      expect(ERROR_MESSAGES[code].trim().length, code).toBeGreaterThan(0);
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode('ERR_MADE_UP')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it("keeps the spec catalogue's English texts", () => {
    expect(ERROR_MESSAGES).toMatchObject({
      ERR_NO_OTHER_WHATSAPP: 'There must be at lest one default WhatsApp connection.',
      ERR_NO_DEF_WAPP_FOUND: 'No default WhatsApp found. Check connections page.',
      ERR_INVALID_CREDENTIALS: 'Authentication error. Please try again.',
      ERR_OTHER_OPEN_TICKET: "There's already an open ticket for this contact.",
      ERR_SESSION_EXPIRED: 'Session expired. Please login.',
      ERR_USER_CREATION_DISABLED: 'User creation was disabled by administrator.',
      ERR_NO_PERMISSION: "You don't have permission to access this resource.",
      ERR_DUPLICATED_CONTACT: 'A contact with this number already exists.',
      ERR_QUEUE_COLOR_ALREADY_EXISTS: 'This color is already in use, pick another one.',
      ERR_WAPP_GREETING_REQUIRED: 'Greeting message is required if there is more than one queue.',
    });
  });
});

describe('settings and limits', () => {
  it("lists exactly the spec's setting keys, and the ones SMTP, the chatbot's debounce, Vonage's calls and webhooks, the call notice and business hours add", () => {
    expect([...SETTING_KEYS].sort()).toEqual(
      [
        'userCreation',
        'defaultCountryCode',
        'groups',
        'typebot',
        'typebotUrl',
        'typebotName',
        'typebotRestart',
        'typebotOff',
        'typebotTime',
        'emailUser',
        'emailPass',
        'emailFrom',
        'emailTo',
        'vonageApiKey',
        'vonageApiSecret',
        'vonageApiId',
        'timeCreateNewTicket',
        'call',
        'CheckMsgIsGroup',
        'userApiToken',
        // Added: the SMTP server (e-mail), the e-mails' language, and the bot's debounce.
        'emailHost',
        'emailPort',
        'emailSecurity',
        'emailLanguage',
        'typebotDebounce',
        // Added: the Vonage application's private key (calls), the webhooks' signature secret, the default sender.
        'vonagePrivateKey',
        'vonageSignatureSecret',
        'vonageFrom',
        // Added: the text a caller gets when the call setting rejects their call.
        'callMessage',
        // Added: business hours (waiting times counted within opening hours; 'closed now' in the queue menu).
        'businessHoursInFigures',
        'businessHoursInMenu',
      ].sort(),
    );
    for (const key of SETTING_KEYS) {
      const def = SETTINGS[key];
      if (def.kind === 'toggle') expect(['enabled', 'disabled'], key).toContain(def.default);
    }
  });

  it('offers the 11 time-to-open-new-ticket options of the spec, the default among them', () => {
    expect([...TIME_CREATE_NEW_TICKET_OPTIONS]).toEqual([10, 30, 60, 300, 1800, 3600, 7200, 21600, 43200, 86400, 172800]);
    expect(TIME_CREATE_NEW_TICKET_OPTIONS.map(String)).toContain(SETTINGS.timeCreateNewTicket.default);
    expect(LIMITS).toMatchObject({ pageSize: 20, searchMinChars: 3, minAudioBytes: 10000, quickAnswerMaxChars: 30000 });
  });
});
