import { describe, expect, it } from 'vitest';
import { isoToLocalParts, localPartsToIso, offsetLabel, offsetMinutes } from '../../../src/islands/admin/projects/datetime.ts';

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
    expect(offsetLabel('Asia/Kolkata', Date.parse('2026-01-01T00:00:00Z'))).toBe('UTC+05:30');
    expect(offsetLabel('UTC')).toBe('UTC');
  });
});
