/** REPORTS_TIME_ZONE: an IANA zone or nothing; a typo stops the start with a clear message instead of failing each report. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';

describe('REPORTS_TIME_ZONE', () => {
  it('takes an IANA zone, falls back to São Paulo for a Portuguese install, and refuses a zone that does not exist', () => {
    expect(loadConfig({ REPORTS_TIME_ZONE: 'Europe/Lisbon' }).reportsTimeZone).toBe('Europe/Lisbon');
    expect(loadConfig({ DEFAULT_LANGUAGE: 'pt' }).reportsTimeZone).toBe(process.env.TZ || 'America/Sao_Paulo');
    expect(() => loadConfig({ REPORTS_TIME_ZONE: 'Mars/Base' })).toThrow(/REPORTS_TIME_ZONE: an IANA time zone/);
  });
});
