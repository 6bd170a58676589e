/**
 * Time zones (IANA names) and the arithmetic on them, the one place for it, the same in the browser
 * and on the server: zone names, wall clocks and UTC offsets, calendar days (`YYYY-MM-DD`) in UTC
 * and in a zone, and moments typed as a date and a time on a zone's clock. A participant's zone is
 * one of their preferences: it decides the calendar day a diary entry counts on (`docs/api.md`,
 * "Taking part"). Zod-free and library-free (Intl knows the zones): the onboarding screen loads it
 * eagerly.
 */

import { addDays, utcDate, utcMidnight } from './calendar-day.ts';

/** Longest zone name accepted (the longest IANA names are about 30 characters). */
export const TIME_ZONE_MAX = 64;

/**
 * Zones already asked about, with their canonical spelling (or null): each `Intl.DateTimeFormat`
 * holds ICU objects in native memory until a garbage collection, and a server asks about the same
 * few zones for every home and diary entry.
 */
const canonicalZones = new Map<string, string | null>();
const CANONICAL_ZONES_MAX = 1_000;

/** The platform's canonical spelling of a zone (`asia/tokyo` → `Asia/Tokyo`), or null when it knows no such zone. */
export function canonicalTimeZone(name: string | null | undefined): string | null {
  if (!name || name.length > TIME_ZONE_MAX) return null;
  const known = canonicalZones.get(name);
  if (known !== undefined) return known;
  let canonical: string | null;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    canonical = null;
  }
  if (canonicalZones.size >= CANONICAL_ZONES_MAX) canonicalZones.clear();
  canonicalZones.set(name, canonical);
  return canonical;
}

/** The browser's (or the process's) own zone; UTC when it cannot say. */
export function deviceTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the platform lists, UTC first, then by name; `extra` ones (a stored zone, this device's alias) are kept when missing. */
export function timeZoneNames(...extra: (string | null | undefined)[]): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set<string>(['UTC', ...listed]);
  for (const name of extra) if (name) names.add(name);
  return ['UTC', ...[...names].filter((name) => name !== 'UTC').sort()];
}

/** An IANA time zone name as the platform knows it (`asia/tokyo` → `Asia/Tokyo`); `UTC` for anything invalid or absent. */
export function safeTimeZone(name: string | null | undefined): string {
  return canonicalTimeZone(name) ?? 'UTC';
}

// ---------------------------------------------------------------------------------------------
// Wall clocks and offsets (Intl knows the zones; no library)

/** A zone's wall-clock reading at an instant. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at the instant `ms` (to the second). Throws a RangeError for a zone Intl does not know. */
export function wallClock(ms: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The wall clock of `timeZone` at the instant `ms`, read as if it were UTC (ms). */
export function wallClockMs(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** Minutes `timeZone` is ahead of UTC at the instant `ms` (Paris in summer: 120). */
export function offsetMinutes(ms: number, timeZone: string): number {
  return Math.round((wallClockMs(ms, timeZone) - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (value: number, size = 2): string => String(Math.abs(value)).padStart(size, '0');

/** `+02:00`, `-05:00`, `+05:30`. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/**
 * `UTC+02:00`-style offset of a zone at an instant (now by default), for labels; `UTC` when the
 * zone is on UTC then (London in winter) or unknown. Worked out, not Intl's `longOffset`, whose
 * spelling of a zero offset varies between engines ("GMT" or "GMT+00:00").
 */
export function utcOffsetLabel(timeZone: string, at: Date = new Date()): string {
  try {
    const minutes = offsetMinutes(at.getTime(), timeZone);
    return minutes === 0 ? 'UTC' : `UTC${offsetText(minutes)}`;
  } catch {
    return 'UTC';
  }
}

/** The calendar day (`YYYY-MM-DD`) of `instant` in the time zone (a diary entry's day). */
export function localDateIn(instant: Date, timeZone: string): string {
  return utcDate(new Date(wallClockMs(instant.getTime(), timeZone)));
}

/** The first moment of the day after `instant`'s calendar day in the time zone (its next local midnight). */
export function nextLocalMidnight(instant: Date, timeZone: string): Date {
  const target = utcMidnight(addDays(localDateIn(instant, timeZone), 1)).getTime();
  // The zone's offset at the target, found in two steps (the offset may change that night).
  let guess = target - (wallClockMs(target, timeZone) - target);
  guess = target - (wallClockMs(guess, timeZone) - guess);
  return new Date(guess);
}

// ---------------------------------------------------------------------------------------------
// Moments typed as a date and a time on a zone's clock (the admin's opens/closes at)

/** A wall-clock reading: `date` is `YYYY-MM-DD`, `time` is `HH:MM` (24 h); both empty for "not set". */
export interface LocalParts {
  date: string;
  time: string;
}

/** An ISO moment (any offset) as the date and time on `timeZone`'s clock; empty parts for null or an unreadable value. */
export function isoToLocalParts(iso: string | null | undefined, timeZone: string): LocalParts {
  if (!iso) return { date: '', time: '' };
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return { date: '', time: '' };
  const wall = wallClock(ms, timeZone);
  return { date: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`, time: `${pad(wall.hour)}:${pad(wall.minute)}` };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})(?::\d{2})?$/;

/**
 * A date and time on `timeZone`'s clock as an ISO moment with that zone's offset at that moment
 * (`2026-07-01T09:00:00+02:00`). Null when both are empty; `undefined` when they do not make a
 * moment (a date without a time, a time without a date, an impossible date). A time skipped by a
 * daylight-saving change becomes the moment just after the jump (02:30 → 03:30).
 */
export function localPartsToIso(date: string, time: string, timeZone: string): string | null | undefined {
  const dateText = date.trim();
  const timeText = time.trim();
  if (dateText === '' && timeText === '') return null;
  const d = DATE_PATTERN.exec(dateText);
  const t = TIME_PATTERN.exec(timeText);
  if (!d || !t) return undefined;
  const [year, month, day, hour, minute] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return undefined;
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wallAsUtc);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  // The offset depends on the instant, which depends on the offset: two rounds settle it (a third
  // only matters inside a daylight-saving gap, where the offset before the jump gives the moment after it).
  let instant = wallAsUtc - offsetMinutes(wallAsUtc, timeZone) * 60_000;
  const second = offsetMinutes(instant, timeZone);
  instant = wallAsUtc - second * 60_000;
  const offset = offsetMinutes(instant, timeZone);
  if (offset !== second) instant = wallAsUtc - Math.min(offset, second) * 60_000;
  const finalOffset = offsetMinutes(instant, timeZone);
  const wall = wallClock(instant, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:00${offsetText(finalOffset)}`;
}
