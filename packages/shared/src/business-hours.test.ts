import { describe, expect, it } from 'vitest';
import { type BusinessHours, ZBusinessHoursSchema, isOpenAt, localDateAt, openIntervals, openSecondsBetween, weekdaysWeek } from './business-hours.js';

const at = (iso: string) => Date.parse(iso);
const H = 3600;
const empty = () => [[], [], [], [], [], [], []] as BusinessHours['week'];

/** Monday to Friday 08:00–18:00 in São Paulo (UTC−3 all year: no DST since 2019). */
const saoPaulo: BusinessHours = { timezone: 'America/Sao_Paulo', week: weekdaysWeek('08:00', '18:00'), holidays: ['2026-11-20'] };

describe('opening hours in a zone without DST (America/Sao_Paulo)', () => {
  it.each([
    ['2026-11-26T10:59:59.999Z', false, 'Thursday 07:59 local'],
    ['2026-11-26T11:00:00.000Z', true, 'Thursday 08:00 local'],
    ['2026-11-26T20:59:00.000Z', true, 'Thursday 17:59 local'],
    ['2026-11-26T21:00:00.000Z', false, 'Thursday 18:00 local: the range ends'],
    ['2026-11-28T15:00:00.000Z', false, 'Saturday noon: no ranges'],
    ['2026-11-20T15:00:00.000Z', false, 'Friday noon, a holiday: closed all day'],
    ['2026-11-27T15:00:00.000Z', true, 'the Friday after, not a holiday'],
  ])('%s → open %s (%s)', (iso, open) => {
    expect(isOpenAt(saoPaulo, at(iso))).toBe(open);
  });

  it('counts only the open time between Friday 17:00 and Monday 09:00', () => {
    expect(openSecondsBetween(saoPaulo, at('2026-11-27T20:00:00Z'), at('2026-11-30T12:00:00Z'))).toBe(2 * H);
    expect(openIntervals(saoPaulo, at('2026-11-27T20:00:00Z'), at('2026-11-30T12:00:00Z'))).toEqual([
      [at('2026-11-27T20:00:00Z'), at('2026-11-27T21:00:00Z')],
      [at('2026-11-30T11:00:00Z'), at('2026-11-30T12:00:00Z')],
    ]);
  });

  it('a holiday counts nothing, the days around it count in full', () => {
    expect(openSecondsBetween(saoPaulo, at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'))).toBe(0);
    expect(openSecondsBetween(saoPaulo, at('2026-11-19T00:00:00Z'), at('2026-11-24T00:00:00Z'))).toBe(10 * H * 2);
  });

  it('knows the local date of an instant', () => {
    expect(localDateAt('America/Sao_Paulo', at('2026-11-27T02:00:00Z'))).toBe('2026-11-26');
  });
});

describe('opening hours across a DST change (Europe/Lisbon)', () => {
  const sundays: BusinessHours = { timezone: 'Europe/Lisbon', week: [[{ from: '09:00', to: '17:00' }], [], [], [], [], [], []], holidays: [] };

  it('09:00 local is 09:00 UTC in winter and 08:00 UTC in summer', () => {
    expect(openIntervals(sundays, at('2026-03-22T00:00:00Z'), at('2026-03-30T00:00:00Z'))).toEqual([
      [at('2026-03-22T09:00:00Z'), at('2026-03-22T17:00:00Z')],
      [at('2026-03-29T08:00:00Z'), at('2026-03-29T16:00:00Z')],
    ]);
  });

  it('the day clocks go forward has 23 open hours, the day they go back 25', () => {
    const always: BusinessHours = { timezone: 'Europe/Lisbon', week: empty().map(() => [{ from: '00:00', to: '24:00' }]), holidays: [] };
    const onlySunday: BusinessHours = { ...always, week: [[{ from: '00:00', to: '24:00' }], [], [], [], [], [], []] };
    expect(openSecondsBetween(onlySunday, at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z'))).toBe(23 * H);
    expect(openSecondsBetween(onlySunday, at('2026-10-24T00:00:00Z'), at('2026-10-27T00:00:00Z'))).toBe(25 * H);
    expect(openIntervals(always, at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z'))).toEqual([[at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z')]]);
  });

  it('a range starting in the skipped hour starts when the clocks jump', () => {
    const early: BusinessHours = { timezone: 'Europe/Lisbon', week: [[{ from: '01:30', to: '03:00' }], [], [], [], [], [], []], holidays: [] };
    // 01:30 does not exist on 29 March 2026 (01:00 WET → 02:00 WEST at 01:00 UTC); 03:00 WEST = 02:00 UTC.
    expect(openIntervals(early, at('2026-03-29T00:00:00Z'), at('2026-03-30T00:00:00Z'))).toEqual([[at('2026-03-29T01:00:00Z'), at('2026-03-29T02:00:00Z')]]);
  });
});

describe('overnight opening and edges', () => {
  // Friday 22:00 – Saturday 02:00 in São Paulo, written as two ranges.
  const night: BusinessHours = { timezone: 'America/Sao_Paulo', week: [[], [], [], [], [], [{ from: '22:00', to: '24:00' }], [{ from: '00:00', to: '02:00' }]], holidays: [] };

  it('a range to 24:00 and the next day from 00:00 make one interval', () => {
    expect(openIntervals(night, at('2026-11-27T00:00:00Z'), at('2026-11-29T00:00:00Z'))).toEqual([[at('2026-11-28T01:00:00Z'), at('2026-11-28T05:00:00Z')]]);
    expect(isOpenAt(night, at('2026-11-28T03:00:00Z'))).toBe(true);
    expect(isOpenAt(night, at('2026-11-28T05:00:00Z'))).toBe(false);
  });

  it('a holiday on the Saturday cuts the night at midnight', () => {
    expect(openSecondsBetween({ ...night, holidays: ['2026-11-28'] }, at('2026-11-27T00:00:00Z'), at('2026-11-29T00:00:00Z'))).toBe(2 * H);
  });

  it('clips to the asked range; overlapping ranges count once; no hours = always open', () => {
    const overlap: BusinessHours = {
      ...saoPaulo,
      holidays: [],
      week: empty().map(() => [
        { from: '08:00', to: '12:00' },
        { from: '10:00', to: '14:00' },
      ]),
    };
    expect(openSecondsBetween(overlap, at('2026-11-26T00:00:00Z'), at('2026-11-27T00:00:00Z'))).toBe(6 * H);
    expect(openSecondsBetween(overlap, at('2026-11-26T12:00:00Z'), at('2026-11-26T12:30:00Z'))).toBe(1800);
    expect(openSecondsBetween(null, at('2026-11-26T12:00:00Z'), at('2026-11-26T13:00:00Z'))).toBe(H);
    expect(openSecondsBetween(saoPaulo, at('2026-11-26T13:00:00Z'), at('2026-11-26T12:00:00Z'))).toBe(0);
    expect(isOpenAt({ ...saoPaulo, week: empty() }, at('2026-11-26T15:00:00Z'))).toBe(false);
  });
});

describe('the hours schema', () => {
  const ok = { timezone: 'America/Sao_Paulo', week: weekdaysWeek(), holidays: ['2026-12-25'] };
  it('accepts a week with 24:00 as an end', () => {
    expect(ZBusinessHoursSchema.safeParse({ ...ok, week: empty().map(() => [{ from: '00:00', to: '24:00' }]) }).success).toBe(true);
  });
  it.each([
    ['an unknown time zone', { ...ok, timezone: 'Mars/Olympus' }],
    ['six days', { ...ok, week: ok.week.slice(1) }],
    ['an end before its start', { ...ok, week: empty().map(() => [{ from: '18:00', to: '08:00' }]) }],
    ['24:00 as a start', { ...ok, week: empty().map(() => [{ from: '24:00', to: '24:00' }]) }],
    ['a holiday that is not a date', { ...ok, holidays: ['2026-02-30'] }],
  ])('refuses %s', (_name, value) => {
    expect(ZBusinessHoursSchema.safeParse(value).success).toBe(false);
  });
});
