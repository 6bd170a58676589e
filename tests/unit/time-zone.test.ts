/** The time-zone and calendar-day arithmetic both sides share (`src/shared/time-zone.ts`, `calendar-day.ts`). */
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  deviceTimeZone,
  isoToLocalParts,
  localDateIn,
  localPartsToIso,
  nextLocalMidnight,
  offsetMinutes,
  safeTimeZone,
  timeZoneNames,
  utcOffsetLabel,
  wallClock,
  wallClockMs,
} from '../../src/shared/time-zone.ts';
import { addDays, deviceDate, utcDate, utcMidnight } from '../../src/shared/calendar-day.ts';

describe('localPartsToIso', () => {
  it('writes the zone offset of that moment (summer and winter in Paris)', () => {
    expect(localPartsToIso('2026-07-01', '09:00', 'Europe/Paris')).toBe('2026-07-01T09:00:00+02:00');
    expect(localPartsToIso('2026-12-01', '09:00', 'Europe/Paris')).toBe('2026-12-01T09:00:00+01:00');
  });

  it('handles zones behind UTC, half-hour zones and UTC', () => {
    expect(localPartsToIso('2026-01-15', '23:30', 'America/New_York')).toBe('2026-01-15T23:30:00-05:00');
    expect(localPartsToIso('2026-03-01', '10:15', 'Asia/Kolkata')).toBe('2026-03-01T10:15:00+05:30');
    expect(localPartsToIso('2026-03-01', '10:15', 'UTC')).toBe('2026-03-01T10:15:00+00:00');
  });

  it('gives the instant the admin meant', () => {
    const iso = localPartsToIso('2026-07-01', '09:00', 'America/Los_Angeles');
    expect(new Date(iso ?? '').toISOString()).toBe('2026-07-01T16:00:00.000Z');
  });

  it('moves a time skipped by the spring change to just after the jump', () => {
    // 02:30 does not exist in Paris on 2026-03-29 (02:00 → 03:00).
    expect(localPartsToIso('2026-03-29', '02:30', 'Europe/Paris')).toBe('2026-03-29T03:30:00+02:00');
  });

  it('is null when both parts are empty and undefined when they do not make a moment', () => {
    expect(localPartsToIso('', '', 'UTC')).toBeNull();
    expect(localPartsToIso('2026-07-01', '', 'UTC')).toBeUndefined();
    expect(localPartsToIso('', '09:00', 'UTC')).toBeUndefined();
    expect(localPartsToIso('2026-02-30', '09:00', 'UTC')).toBeUndefined();
    expect(localPartsToIso('2026-07-01', '24:00', 'UTC')).toBeUndefined();
  });
});

describe('isoToLocalParts', () => {
  it('reads a moment on the wall clock of the zone, whatever offset it was written with', () => {
    expect(isoToLocalParts('2026-07-01T07:00:00Z', 'Europe/Paris')).toEqual({ date: '2026-07-01', time: '09:00' });
    expect(isoToLocalParts('2026-07-01T02:00:00+02:00', 'America/New_York')).toEqual({ date: '2026-06-30', time: '20:00' });
  });

  it('round-trips with localPartsToIso', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC']) {
      const iso = localPartsToIso('2026-10-04', '18:45', zone);
      expect(isoToLocalParts(iso, zone)).toEqual({ date: '2026-10-04', time: '18:45' });
    }
  });

  it('gives empty parts for null and unreadable values', () => {
    expect(isoToLocalParts(null, 'UTC')).toEqual({ date: '', time: '' });
    expect(isoToLocalParts('soon', 'UTC')).toEqual({ date: '', time: '' });
  });
});

describe('offsets', () => {
  it('knows the offset at an instant and labels it', () => {
    expect(offsetMinutes(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Paris')).toBe(120);
    expect(offsetMinutes(Date.parse('2026-01-01T00:00:00Z'), 'America/New_York')).toBe(-300);
    expect(utcOffsetLabel('Asia/Kolkata', new Date('2026-01-01T00:00:00Z'))).toBe('UTC+05:30');
    expect(utcOffsetLabel('UTC')).toBe('UTC');
    expect(utcOffsetLabel('Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe('UTC');
    expect(utcOffsetLabel('Europe/London', new Date('2026-07-15T12:00:00Z'))).toBe('UTC+01:00');
    expect(utcOffsetLabel('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe('UTC-03:30');
    expect(utcOffsetLabel('Mars/Olympus_Mons')).toBe('UTC');
  });
});

describe('zone names', () => {
  it('spells a zone the platform’s way, or knows none', () => {
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
    expect(canonicalTimeZone(undefined)).toBeNull();
    expect(canonicalTimeZone(`Europe/${'x'.repeat(70)}`)).toBeNull();
  });

  it('falls back to UTC where a zone must be had', () => {
    expect(safeTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(safeTimeZone('Nowhere/Else')).toBe('UTC');
    expect(safeTimeZone(null)).toBe('UTC');
    expect(canonicalTimeZone(deviceTimeZone())).toBe(deviceTimeZone());
  });

  it('lists UTC first, then by name, keeping extra ones', () => {
    const names = timeZoneNames('Etc/Extra');
    expect(names[0]).toBe('UTC');
    expect(names.filter((name) => name === 'UTC')).toHaveLength(1);
    expect(names).toContain('Etc/Extra');
    const rest = names.slice(1);
    expect(rest).toEqual([...rest].sort());
  });
});

describe('wall clocks', () => {
  it('reads a zone’s clock at an instant, to the second', () => {
    expect(wallClock(Date.parse('2026-07-01T22:30:15.900Z'), 'Asia/Tokyo')).toEqual({ year: 2026, month: 7, day: 2, hour: 7, minute: 30, second: 15 });
    expect(wallClock(Date.parse('2026-01-01T00:00:00Z'), 'UTC')).toEqual({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    expect(wallClockMs(Date.parse('2026-07-01T07:00:00Z'), 'Europe/Paris')).toBe(Date.parse('2026-07-01T09:00:00Z'));
  });

  it('throws for a zone Intl does not know (callers canonicalise first)', () => {
    expect(() => wallClock(0, 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('calendar days', () => {
  it('the UTC day, its midnight, and days after or before', () => {
    expect(utcDate(new Date('2026-03-05T23:59:59Z'))).toBe('2026-03-05');
    expect(utcMidnight('2026-03-05').toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(Number.isNaN(utcMidnight('soon').getTime())).toBe(true);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('the day on this device’s clock', () => {
    const now = new Date(2026, 2, 5, 23, 30);
    expect(deviceDate(now)).toBe('2026-03-05');
    expect(deviceDate(new Date(2026, 0, 1, 0, 0))).toBe('2026-01-01');
  });

  it('the day of an instant in a zone (a diary entry’s day)', () => {
    const instant = new Date('2026-03-05T23:30:00Z');
    expect(localDateIn(instant, 'UTC')).toBe('2026-03-05');
    expect(localDateIn(instant, 'Asia/Tokyo')).toBe('2026-03-06');
    expect(localDateIn(new Date('2026-03-06T03:00:00Z'), 'America/New_York')).toBe('2026-03-05');
  });

  it('the next local midnight, also across a daylight-saving change that night', () => {
    expect(nextLocalMidnight(new Date('2026-03-05T10:00:00Z'), 'UTC').toISOString()).toBe('2026-03-06T00:00:00.000Z');
    expect(nextLocalMidnight(new Date('2026-03-05T10:00:00Z'), 'Asia/Tokyo').toISOString()).toBe('2026-03-05T15:00:00.000Z');
    // Paris moves to summer time on 29 March 2026 (02:00 → 03:00): midnight after the 28th is still +01:00, after the 29th +02:00.
    expect(nextLocalMidnight(new Date('2026-03-28T12:00:00Z'), 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(nextLocalMidnight(new Date('2026-03-29T12:00:00Z'), 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // Santiago leaves summer time at midnight (5 April 2026, 00:00 → 23:00 the day before): the first moment of the 5th.
    const santiago = nextLocalMidnight(new Date('2026-04-04T15:00:00Z'), 'America/Santiago');
    expect(localDateIn(santiago, 'America/Santiago')).toBe('2026-04-05');
    expect(localDateIn(new Date(santiago.getTime() - 1000), 'America/Santiago')).toBe('2026-04-04');
  });
});
