/**
 * Calendar month grid (docs/product.md §9: 42 cells in fixed-week mode), plain calendar dates, the
 * WAI-ARIA date-grid keyboard map and Intl labels. Pure and time-zone free: a date is a
 * { year, month, day } triple, computed on UTC day numbers, so no DST shift can move a day.
 */
import { CALENDAR_DAYS_PER_WEEK, CALENDAR_DEFAULT_WEEK_START, CALENDAR_FIXED_CELLS } from '../../shared/ui-constants.ts';

/** A calendar day without time or zone. `month` is 1–12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** 0 = Sunday, 1 = Monday, … 6 = Saturday (as Date#getUTCDay). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

const DAY_MS = 86_400_000;

function toUtcMs({ year, month, day }: CalendarDate): number {
  // Not Date.UTC: it maps years 0–99 to 1900–1999. Out-of-range months and days roll over.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function fromUtcMs(ms: number): CalendarDate {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Days since 1970-01-01. */
export function dayNumber(date: CalendarDate): number {
  return Math.round(toUtcMs(date) / DAY_MS);
}

export function fromDayNumber(days: number): CalendarDate {
  return fromUtcMs(days * DAY_MS);
}

export function daysInMonth(year: number, month: number): number {
  return fromUtcMs(toUtcMs({ year, month: month + 1, day: 0 })).day;
}

export function dayOfWeek(date: CalendarDate): Weekday {
  return new Date(toUtcMs(date)).getUTCDay() as Weekday;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromDayNumber(dayNumber(date) + days);
}

/** Same day `months` later; a day that month lacks becomes its last day (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

export function addYears(date: CalendarDate, years: number): CalendarDate {
  return addMonths(date, years * 12);
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return dayNumber(a) - dayNumber(b);
}

export function isSameDate(a: CalendarDate | null | undefined, b: CalendarDate | null | undefined): boolean {
  return !!a && !!b && a.year === b.year && a.month === b.month && a.day === b.day;
}

export function isSameMonth(a: CalendarDate, b: { year: number; month: number }): boolean {
  return a.year === b.year && a.month === b.month;
}

/** The first day of the week holding `date`. */
export function startOfWeek(date: CalendarDate, weekStartsOn: Weekday = CALENDAR_DEFAULT_WEEK_START): CalendarDate {
  const offset = (dayOfWeek(date) - weekStartsOn + CALENDAR_DAYS_PER_WEEK) % CALENDAR_DAYS_PER_WEEK;
  return addDays(date, -offset);
}

export function endOfWeek(date: CalendarDate, weekStartsOn: Weekday = CALENDAR_DEFAULT_WEEK_START): CalendarDate {
  return addDays(startOfWeek(date, weekStartsOn), CALENDAR_DAYS_PER_WEEK - 1);
}

/** Earlier than `min` or later than `max` (either may be absent). */
export function isOutOfRange(date: CalendarDate, min?: CalendarDate | null, max?: CalendarDate | null): boolean {
  return (!!min && compareDates(date, min) < 0) || (!!max && compareDates(date, max) > 0);
}

export function clampDate(date: CalendarDate, min?: CalendarDate | null, max?: CalendarDate | null): CalendarDate {
  if (min && compareDates(date, min) < 0) return min;
  if (max && compareDates(date, max) > 0) return max;
  return date;
}

const pad = (value: number, length: number) => String(Math.abs(value)).padStart(length, '0');

/** "2024-03-07" */
export function toISODate({ year, month, day }: CalendarDate): string {
  return `${year < 0 ? '-' : ''}${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Reads "YYYY-MM-DD"; anything else, or a day the month lacks, gives null. */
export function parseISODate(value: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** The local calendar day of a Date (today by default). */
export function fromDate(date: Date = new Date()): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

export interface CalendarCell {
  date: CalendarDate;
  /** "YYYY-MM-DD", a stable key. */
  iso: string;
  /** The day belongs to the previous or next month. */
  outside: boolean;
  weekday: Weekday;
}

export interface CalendarGridOptions {
  year: number;
  /** 1–12 */
  month: number;
  weekStartsOn?: Weekday;
  /** Always six weeks (42 cells), so the grid never changes height. Default true. */
  fixedWeeks?: boolean;
}

/**
 * The days shown for a month: from the start of the week holding the 1st, whole weeks, up to
 * the end of the week holding the last day, or 42 cells in fixed-week mode.
 */
export function calendarGrid({ year, month, weekStartsOn = CALENDAR_DEFAULT_WEEK_START, fixedWeeks = true }: CalendarGridOptions): CalendarCell[] {
  const first = { year, month, day: 1 };
  const last = { year, month, day: daysInMonth(year, month) };
  const start = startOfWeek(first, weekStartsOn);
  const count = fixedWeeks ? CALENDAR_FIXED_CELLS : dayNumber(endOfWeek(last, weekStartsOn)) - dayNumber(start) + 1;
  const cells: CalendarCell[] = [];
  const startNumber = dayNumber(start);
  for (let i = 0; i < count; i += 1) {
    const date = fromDayNumber(startNumber + i);
    cells.push({ date, iso: toISODate(date), outside: !isSameMonth(date, first), weekday: dayOfWeek(date) });
  }
  return cells;
}

/** Cells in rows of seven. */
export function calendarWeeks<T>(cells: readonly T[]): T[][] {
  const weeks: T[][] = [];
  for (let i = 0; i < cells.length; i += CALENDAR_DAYS_PER_WEEK) weeks.push(cells.slice(i, i + CALENDAR_DAYS_PER_WEEK));
  return weeks;
}

/**
 * The day a key moves focus to in the grid (WAI-ARIA APG date picker): ←/→ one day, ↑/↓ one
 * week, Home/End the first/last day of the week, PageUp/PageDown one month, with Shift one
 * year. Other keys give null.
 */
export function calendarKeyTarget(
  date: CalendarDate,
  event: { key: string; shiftKey?: boolean },
  weekStartsOn: Weekday = CALENDAR_DEFAULT_WEEK_START,
): CalendarDate | null {
  switch (event.key) {
    case 'ArrowLeft':
      return addDays(date, -1);
    case 'ArrowRight':
      return addDays(date, 1);
    case 'ArrowUp':
      return addDays(date, -CALENDAR_DAYS_PER_WEEK);
    case 'ArrowDown':
      return addDays(date, CALENDAR_DAYS_PER_WEEK);
    case 'Home':
      return startOfWeek(date, weekStartsOn);
    case 'End':
      return endOfWeek(date, weekStartsOn);
    case 'PageUp':
      return event.shiftKey ? addYears(date, -1) : addMonths(date, -1);
    case 'PageDown':
      return event.shiftKey ? addYears(date, 1) : addMonths(date, 1);
    default:
      return null;
  }
}

function utcDate(date: CalendarDate): Date {
  return new Date(toUtcMs(date));
}

export interface WeekdayName {
  weekday: Weekday;
  /** "Mon" (or the locale's) for the column header. */
  short: string;
  /** "Monday", for the header's abbr / accessible name. */
  long: string;
}

/** Column headers in grid order, from Intl in `locale`. */
export function weekdayNames(locale: string | undefined, weekStartsOn: Weekday = CALENDAR_DEFAULT_WEEK_START): WeekdayName[] {
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 2023-01-01 was a Sunday.
  return Array.from({ length: CALENDAR_DAYS_PER_WEEK }, (_, i) => {
    const weekday = ((weekStartsOn + i) % CALENDAR_DAYS_PER_WEEK) as Weekday;
    const date = utcDate({ year: 2023, month: 1, day: 1 + weekday });
    return { weekday, short: short.format(date), long: long.format(date) };
  });
}

/** "March 2024" in `locale`. */
export function formatMonthYear(year: number, month: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utcDate({ year, month, day: 1 }));
}

/** "Thursday, March 7, 2024" in `locale`: a day button's accessible name. */
export function formatFullDate(date: CalendarDate, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(utcDate(date));
}

/** The day number as the locale writes it ("7", "٧", …). */
export function formatDayNumber(date: CalendarDate, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', timeZone: 'UTC' }).format(utcDate(date));
}
