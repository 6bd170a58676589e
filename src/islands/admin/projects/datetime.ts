/**
 * Moments (opens/closes at) as admins type them: a date and a time on the wall clock of a time
 * zone (the admin's browser zone), and back. The API takes and gives ISO 8601 strings with an
 * offset; these helpers convert between the two without any library (Intl knows the zones).
 */

/** The browser's IANA time zone ("Europe/Paris"), UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A wall-clock reading: `date` is `YYYY-MM-DD`, `time` is `HH:MM` (24 h); both empty for "not set". */
export interface LocalParts {
  date: string;
  time: string;
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

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock of `timeZone` at the instant `ms`. */
function wallAt(ms: number, timeZone: string): Wall {
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

/** Minutes `timeZone` is ahead of UTC at the instant `ms` (Paris in summer: 120). */
export function offsetMinutes(ms: number, timeZone: string): number {
  const wall = wallAt(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (value: number, size = 2): string => String(Math.abs(value)).padStart(size, '0');

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** An ISO moment (any offset) as the date and time on `timeZone`'s clock; empty parts for null or an unreadable value. */
export function isoToLocalParts(iso: string | null | undefined, timeZone: string): LocalParts {
  if (!iso) return { date: '', time: '' };
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return { date: '', time: '' };
  const wall = wallAt(ms, timeZone);
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
  const wall = wallAt(instant, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:00${offsetText(finalOffset)}`;
}

/** "UTC+02:00" for the zone at the instant (now by default), for labels beside the inputs. */
export function offsetLabel(timeZone: string, ms = Date.now()): string {
  const minutes = offsetMinutes(ms, timeZone);
  return minutes === 0 ? 'UTC' : `UTC${offsetText(minutes)}`;
}
