import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addYears,
  calendarGrid,
  calendarKeyTarget,
  calendarWeeks,
  clampDate,
  compareDates,
  dayOfWeek,
  daysInMonth,
  endOfWeek,
  formatDayNumber,
  formatFullDate,
  formatMonthYear,
  fromDate,
  isOutOfRange,
  isSameDate,
  parseISODate,
  startOfWeek,
  toISODate,
  weekdayNames,
} from '../../../src/lib/ui-kit/calendar-grid.ts';
import type { CalendarDate, Weekday } from '../../../src/lib/ui-kit/calendar-grid.ts';

const d = (iso: string): CalendarDate => {
  const date = parseISODate(iso);
  if (!date) throw new Error(`bad date ${iso}`);
  return date;
};

describe('calendarGrid in fixed-week mode (42 cells)', () => {
  const months = Array.from({ length: 12 }, (_, i) => i + 1);

  it.each([2023, 2024, 2025, 2026])('every month of %i has 42 cells starting on a Monday', (year) => {
    for (const month of months) {
      const cells = calendarGrid({ year, month });
      expect(cells).toHaveLength(42);
      expect(cells[0]?.weekday).toBe(1);
      expect(dayOfWeek(cells[0]!.date)).toBe(1);
      expect(cells[41]?.weekday).toBe(0);
      // Consecutive days, the 1st within the first week, every day of the month present once.
      const inside = cells.filter((cell) => !cell.outside);
      expect(inside).toHaveLength(daysInMonth(year, month));
      expect(inside[0]?.date).toEqual({ year, month, day: 1 });
      expect(cells.findIndex((cell) => !cell.outside)).toBeLessThan(7);
      for (let i = 1; i < cells.length; i += 1) expect(compareDates(cells[i]!.date, cells[i - 1]!.date)).toBe(1);
    }
  });

  it('marks the days of neighbouring months as outside', () => {
    // March 2024 starts on a Friday: Monday 26 February opens the grid; it ends on Sunday 7 April.
    const cells = calendarGrid({ year: 2024, month: 3 });
    expect(cells[0]).toMatchObject({ iso: '2024-02-26', outside: true });
    expect(cells[4]).toMatchObject({ iso: '2024-03-01', outside: false });
    expect(cells[34]).toMatchObject({ iso: '2024-03-31', outside: false });
    expect(cells[35]).toMatchObject({ iso: '2024-04-01', outside: true });
    expect(cells[41]).toMatchObject({ iso: '2024-04-07', outside: true });
  });

  it('a month starting on the week start begins with its 1st', () => {
    // 1 January 2024 was a Monday.
    const cells = calendarGrid({ year: 2024, month: 1 });
    expect(cells[0]).toMatchObject({ iso: '2024-01-01', outside: false });
    expect(cells).toHaveLength(42);
  });

  it.each([0, 1, 2, 3, 4, 5, 6] as const)('starts on the configured week start %i', (weekStartsOn: Weekday) => {
    for (let month = 1; month <= 12; month += 1) {
      const cells = calendarGrid({ year: 2025, month, weekStartsOn });
      expect(cells).toHaveLength(42);
      expect(cells[0]?.weekday).toBe(weekStartsOn);
    }
  });

  it('Sunday-start February 2026 (starts on a Sunday) begins with 1 February', () => {
    const cells = calendarGrid({ year: 2026, month: 2, weekStartsOn: 0 });
    expect(cells[0]?.iso).toBe('2026-02-01');
    expect(cells[41]?.iso).toBe('2026-03-14');
  });
});

describe('calendarGrid without fixed weeks', () => {
  it('has only the weeks the month touches', () => {
    // February 2021: Monday 1 to Sunday 28, exactly four weeks.
    expect(calendarGrid({ year: 2021, month: 2, fixedWeeks: false })).toHaveLength(28);
    // March 2024 (Monday start) touches five weeks.
    expect(calendarGrid({ year: 2024, month: 3, fixedWeeks: false })).toHaveLength(35);
    // September 2024 starts on a Sunday: six weeks with a Monday start.
    expect(calendarGrid({ year: 2024, month: 9, fixedWeeks: false })).toHaveLength(42);
  });

  it('is always whole weeks', () => {
    for (let month = 1; month <= 12; month += 1) {
      expect(calendarGrid({ year: 2027, month, fixedWeeks: false }).length % 7).toBe(0);
    }
  });

  it('calendarWeeks makes rows of seven', () => {
    const weeks = calendarWeeks(calendarGrid({ year: 2024, month: 3 }));
    expect(weeks).toHaveLength(6);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
  });
});

describe('date arithmetic', () => {
  it('knows month lengths and leap years', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2024, 4)).toBe(30);
    expect(daysInMonth(2024, 12)).toBe(31);
  });

  it('adds days across months and years', () => {
    expect(addDays(d('2024-12-31'), 1)).toEqual(d('2025-01-01'));
    expect(addDays(d('2024-03-01'), -1)).toEqual(d('2024-02-29'));
    expect(addDays(d('2024-03-31'), 7)).toEqual(d('2024-04-07'));
  });

  it('adds months, keeping the day within the month', () => {
    expect(addMonths(d('2024-01-31'), 1)).toEqual(d('2024-02-29'));
    expect(addMonths(d('2023-01-31'), 1)).toEqual(d('2023-02-28'));
    expect(addMonths(d('2024-12-15'), 1)).toEqual(d('2025-01-15'));
    expect(addMonths(d('2024-01-15'), -1)).toEqual(d('2023-12-15'));
    expect(addYears(d('2024-02-29'), 1)).toEqual(d('2025-02-28'));
  });

  it('handles years below 100 as themselves', () => {
    expect(addDays({ year: 50, month: 12, day: 31 }, 1)).toEqual({ year: 51, month: 1, day: 1 });
    expect(toISODate({ year: 50, month: 1, day: 2 })).toBe('0050-01-02');
  });

  it('finds week starts and ends', () => {
    // Thursday 7 March 2024.
    expect(startOfWeek(d('2024-03-07'))).toEqual(d('2024-03-04'));
    expect(endOfWeek(d('2024-03-07'))).toEqual(d('2024-03-10'));
    expect(startOfWeek(d('2024-03-07'), 0)).toEqual(d('2024-03-03'));
    expect(endOfWeek(d('2024-03-07'), 0)).toEqual(d('2024-03-09'));
    expect(startOfWeek(d('2024-03-04'))).toEqual(d('2024-03-04'));
  });

  it('compares, ranges and clamps', () => {
    expect(isSameDate(d('2024-03-07'), { year: 2024, month: 3, day: 7 })).toBe(true);
    expect(isSameDate(d('2024-03-07'), null)).toBe(false);
    expect(isOutOfRange(d('2024-03-01'), d('2024-03-02'))).toBe(true);
    expect(isOutOfRange(d('2024-03-03'), d('2024-03-02'), d('2024-03-04'))).toBe(false);
    expect(isOutOfRange(d('2024-03-05'), undefined, d('2024-03-04'))).toBe(true);
    expect(clampDate(d('2024-01-01'), d('2024-02-01'))).toEqual(d('2024-02-01'));
    expect(clampDate(d('2024-09-01'), undefined, d('2024-06-30'))).toEqual(d('2024-06-30'));
  });

  it('reads and writes ISO dates strictly', () => {
    expect(parseISODate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseISODate('2023-02-29')).toBeNull();
    expect(parseISODate('2024-13-01')).toBeNull();
    expect(parseISODate('2024-3-1')).toBeNull();
    expect(parseISODate('yesterday')).toBeNull();
    expect(toISODate({ year: 2024, month: 3, day: 7 })).toBe('2024-03-07');
  });

  it('fromDate reads the local calendar day', () => {
    expect(fromDate(new Date(2024, 2, 7, 23, 59))).toEqual({ year: 2024, month: 3, day: 7 });
  });
});

describe('keyboard (WAI-ARIA date grid)', () => {
  const thursday = d('2024-03-07');
  it.each([
    ['ArrowLeft', false, '2024-03-06'],
    ['ArrowRight', false, '2024-03-08'],
    ['ArrowUp', false, '2024-02-29'],
    ['ArrowDown', false, '2024-03-14'],
    ['Home', false, '2024-03-04'],
    ['End', false, '2024-03-10'],
    ['PageUp', false, '2024-02-07'],
    ['PageDown', false, '2024-04-07'],
    ['PageUp', true, '2023-03-07'],
    ['PageDown', true, '2025-03-07'],
  ] as const)('%s (shift %s) → %s', (key, shiftKey, iso) => {
    expect(calendarKeyTarget(thursday, { key, shiftKey })).toEqual(d(iso));
  });

  it('Home and End follow the week start', () => {
    expect(calendarKeyTarget(thursday, { key: 'Home' }, 0)).toEqual(d('2024-03-03'));
    expect(calendarKeyTarget(thursday, { key: 'End' }, 0)).toEqual(d('2024-03-09'));
  });

  it('PageDown from the 31st lands on the last day of a shorter month', () => {
    expect(calendarKeyTarget(d('2024-01-31'), { key: 'PageDown' })).toEqual(d('2024-02-29'));
  });

  it('other keys do nothing', () => {
    expect(calendarKeyTarget(thursday, { key: 'Enter' })).toBeNull();
    expect(calendarKeyTarget(thursday, { key: 'a' })).toBeNull();
  });
});

describe('labels through Intl', () => {
  it('weekday headers in grid order, Monday first by default', () => {
    const names = weekdayNames('en-GB');
    expect(names.map((n) => n.long)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(names.map((n) => n.short)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(names.map((n) => n.weekday)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(weekdayNames('en-US', 0)[0]?.long).toBe('Sunday');
  });

  it('uses the locale', () => {
    expect(weekdayNames('de')[0]?.long).toBe('Montag');
    expect(formatMonthYear(2024, 3, 'en-US')).toBe('March 2024');
    expect(formatMonthYear(2024, 3, 'fr')).toBe('mars 2024');
    expect(formatFullDate(d('2024-03-07'), 'en-US')).toBe('Thursday, March 7, 2024');
    expect(formatDayNumber(d('2024-03-07'), 'en')).toBe('7');
  });
});
