import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import { mapMediaType, mapProfile, mapStatus, mediaFileName, normaliseNumber, toBool, toIso } from './rules.js';
import { UsageError } from './source.js';

describe('importer rules', () => {
  it('numbers: digits for a person, digits and dashes for a group, none when no digit', () => {
    expect(normaliseNumber('5511999990001', false)).toEqual({ number: '5511999990001', changed: false });
    expect(normaliseNumber('+55 (11) 99999-0002', false)).toEqual({ number: '5511999990002', changed: true });
    expect(normaliseNumber('5511999990003@c.us', false)).toEqual({ number: '5511999990003', changed: true });
    expect(normaliseNumber('5511999990004-1600000000', true)).toEqual({ number: '5511999990004-1600000000', changed: false });
    expect(normaliseNumber('120363012345678901@g.us', true)).toEqual({ number: '120363012345678901', changed: true });
    expect(normaliseNumber('???', false)).toBeUndefined();
    expect(normaliseNumber('', true)).toBeUndefined();
  });

  it('media types: files by their kind, WhatsApp types by theirs, a text is none', () => {
    expect(mapMediaType('image', true)).toBe('image');
    expect(mapMediaType('application', true)).toBe('other');
    expect(mapMediaType('ptt', true)).toBe('audio');
    expect(mapMediaType('vcard', false)).toBe('vcard');
    expect(mapMediaType('location', false)).toBe('location');
    expect(mapMediaType('chat', false)).toBeNull();
    expect(mapMediaType(null, false)).toBeNull();
  });

  it('media names: a plain name of the public folder, nothing that climbs out', () => {
    expect(mediaFileName('1612345678901.jpg')).toEqual({ name: '1612345678901.jpg' });
    expect(mediaFileName('http://host:8080/public/doc%20final.pdf')).toEqual({ name: 'doc final.pdf' });
    expect(mediaFileName('../../etc/passwd')).toEqual({ unsafe: '../../etc/passwd' });
    expect(mediaFileName('..')).toEqual({ unsafe: '..' });
    expect(mediaFileName('')).toBeUndefined();
  });

  it('statuses and profiles we do not know become closed and user', () => {
    expect(mapStatus('open')).toEqual({ status: 'open', known: true });
    expect(mapStatus('archived')).toEqual({ status: 'closed', known: false });
    expect(mapProfile('ADMIN')).toEqual({ profile: 'admin', known: true });
    expect(mapProfile('supervisor')).toEqual({ profile: 'user', known: false });
  });

  it("dates: MySQL's local DATETIME in whaticket's zone; PostgreSQL's instants as they are", () => {
    expect(toIso('2024-01-02 10:00:00', '-03:00')).toBe('2024-01-02T13:00:00.000Z');
    expect(toIso('2024-01-02 10:00:00.250000', '-03:00')).toBe('2024-01-02T13:00:00.250Z');
    expect(toIso('2024-01-02 10:00:00', 'Z')).toBe('2024-01-02T10:00:00.000Z');
    expect(toIso('2024-01-02T10:00:00.000Z', '-03:00')).toBe('2024-01-02T10:00:00.000Z');
    expect(toIso(new Date('2024-01-02T10:00:00Z'), '-03:00')).toBe('2024-01-02T10:00:00.000Z');
    expect([toBool(1), toBool('1'), toBool(true), toBool(0), toBool(false), toBool(null)]).toEqual([true, true, true, false, false, false]);
  });

  it('the command line: the documented flags, anything else a usage error', () => {
    expect(parseArgs(['--from', 'mysql://root@h/db', '--media', '/p', '--dry-run', '--report', 'r.json'])).toMatchObject({
      from: 'mysql://root@h/db',
      media: '/p',
      dryRun: true,
      report: 'r.json',
      batchSize: 2000,
      offset: '-03:00',
    });
    expect(parseArgs(['--from=postgres://h/db', '--batch-size=500', '--source-timezone', 'Z'])).toMatchObject({ batchSize: 500, offset: 'Z' });
    for (const bad of [[], ['--from'], ['--from', 'x', '--what'], ['--from', 'x', '--batch-size', '5'], ['--from', 'x', '--source-timezone', 'BRT']]) expect(() => parseArgs(bad)).toThrow(UsageError);
  });
});
