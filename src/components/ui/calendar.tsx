import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons.tsx';
import { cn } from '../../lib/utils.ts';
import {
  addDays,
  addMonths,
  calendarGrid,
  calendarKeyTarget,
  calendarWeeks,
  clampDate,
  formatDayNumber,
  formatFullDate,
  formatMonthYear,
  fromDate,
  isOutOfRange,
  isSameDate,
  isSameMonth,
  weekdayNames,
} from '../../lib/ui-kit/calendar-grid.ts';
import type { CalendarDate, Weekday } from '../../lib/ui-kit/calendar-grid.ts';
import { CALENDAR_DEFAULT_WEEK_START } from '../../shared/ui-constants.ts';
import { m, currentLanguage } from '../../shared/i18n.ts';

export type { CalendarDate, Weekday } from '../../lib/ui-kit/calendar-grid.ts';

export interface CalendarMonth {
  year: number;
  /** 1–12 */
  month: number;
}

export interface CalendarProps {
  /** Selected day (controlled); null for none. */
  value?: CalendarDate | null;
  defaultValue?: CalendarDate | null;
  onChange?: (date: CalendarDate) => void;
  /** Shown month (controlled). */
  month?: CalendarMonth;
  /** First shown month when uncontrolled; default the selected day's month, else today's. */
  defaultMonth?: CalendarMonth;
  onMonthChange?: (month: CalendarMonth) => void;
  /** 0 = Sunday … 6 = Saturday; default 1 (Monday). */
  weekStartsOn?: Weekday;
  /** Always six weeks, 42 cells (docs/product.md §9); default true. */
  fixedWeeks?: boolean;
  /** Show the days of the neighbouring months in the first and last week; default true. */
  showOutsideDays?: boolean;
  /** BCP 47 locale for the month, weekday and day labels; default the page's language. */
  locale?: string;
  min?: CalendarDate;
  max?: CalendarDate;
  isDateDisabled?: (date: CalendarDate) => boolean;
  /** Today, for the "today" mark; default the visitor's local date (set after hydration). */
  today?: CalendarDate;
  /** Accessible name of the whole calendar (a group), e.g. "Start date". */
  label?: string;
  className?: string;
}

const navButton =
  'inline-flex size-9 items-center justify-center rounded-md border border-input bg-card text-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50';

/**
 * A month grid (WAI-ARIA date grid): Previous/Next month buttons, a live month heading, and a
 * table with role="grid" whose days are buttons with a roving tab stop. Keys: arrows move by a
 * day or a week, Home/End to the week's start/end, PageUp/PageDown by a month (with Shift a
 * year), Enter or Space selects. The selected day has aria-selected, today aria-current="date".
 */
export function Calendar({
  value,
  defaultValue = null,
  onChange,
  month,
  defaultMonth,
  onMonthChange,
  weekStartsOn = CALENDAR_DEFAULT_WEEK_START,
  fixedWeeks = true,
  showOutsideDays = true,
  locale: localeProp,
  min,
  max,
  isDateDisabled,
  today: todayProp,
  label,
  className,
}: CalendarProps) {
  const locale = localeProp ?? currentLanguage();
  const [innerValue, setInnerValue] = useState<CalendarDate | null>(defaultValue);
  const selected = value === undefined ? innerValue : value;
  const [innerView, setInnerView] = useState<CalendarMonth>(() => {
    const start = defaultMonth ?? selected ?? todayProp ?? fromDate();
    return { year: start.year, month: start.month };
  });
  const view = month ?? innerView;
  // Today is read in the browser after hydration, so prerendered HTML never fixes a stale day.
  const [clientToday, setClientToday] = useState<CalendarDate | null>(null);
  useEffect(() => {
    if (!todayProp) setClientToday(fromDate());
  }, [todayProp]);
  const today = todayProp ?? clientToday;

  const [focused, setFocused] = useState<CalendarDate | null>(null);
  const focusAfterRender = useRef(false);
  const gridRef = useRef<HTMLTableElement>(null);
  const headingId = useId();

  const cells = useMemo(
    () => calendarGrid({ year: view.year, month: view.month, weekStartsOn, fixedWeeks }),
    [view.year, view.month, weekStartsOn, fixedWeeks],
  );
  const weekdays = useMemo(() => weekdayNames(locale, weekStartsOn), [locale, weekStartsOn]);

  const isDisabled = (date: CalendarDate) => isOutOfRange(date, min, max) || (isDateDisabled?.(date) ?? false);

  // The one day in the tab order: the focused day if shown, else the selected day, today, or the 1st.
  const tabStop: CalendarDate = (() => {
    for (const candidate of [focused, selected, today]) {
      if (candidate && isSameMonth(candidate, view)) return candidate;
    }
    return clampDate({ year: view.year, month: view.month, day: 1 }, min, max);
  })();

  useEffect(() => {
    if (!focusAfterRender.current) return;
    focusAfterRender.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  });

  function changeView(next: CalendarMonth) {
    if (month === undefined) setInnerView(next);
    onMonthChange?.(next);
  }

  function moveFocus(date: CalendarDate) {
    const target = clampDate(date, min, max);
    setFocused(target);
    if (!isSameMonth(target, view)) changeView({ year: target.year, month: target.month });
    focusAfterRender.current = true;
  }

  function select(date: CalendarDate) {
    if (isDisabled(date)) return;
    if (value === undefined) setInnerValue(date);
    setFocused(date);
    if (!isSameMonth(date, view)) {
      changeView({ year: date.year, month: date.month });
      focusAfterRender.current = true;
    }
    onChange?.(date);
  }

  function onDayKeyDown(event: KeyboardEvent<HTMLButtonElement>, date: CalendarDate) {
    const target = calendarKeyTarget(date, event, weekStartsOn);
    if (!target) return;
    event.preventDefault();
    moveFocus(target);
  }

  function stepMonth(delta: number) {
    const next = addMonths({ year: view.year, month: view.month, day: 1 }, delta);
    changeView({ year: next.year, month: next.month });
  }

  // Another month is reachable when at least one of its days is within [min, max].
  const firstOfView = { year: view.year, month: view.month, day: 1 };
  const canGoBack = !min || !isOutOfRange(addDays(firstOfView, -1), min, undefined);
  const canGoForward = !max || !isOutOfRange(addMonths(firstOfView, 1), undefined, max);

  return (
    <div role="group" aria-label={label} className={cn('w-fit rounded-lg border border-border bg-card p-3 text-card-foreground', className)}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <button type="button" className={navButton} aria-label={m.shell_calendar_previous_month()} disabled={!canGoBack} onClick={() => stepMonth(-1)}>
          <ChevronLeftIcon className="size-4 rtl:-scale-x-100" />
        </button>
        <p id={headingId} aria-live="polite" className="text-sm font-semibold">
          {formatMonthYear(view.year, view.month, locale)}
        </p>
        <button type="button" className={navButton} aria-label={m.shell_calendar_next_month()} disabled={!canGoForward} onClick={() => stepMonth(1)}>
          <ChevronRightIcon className="size-4 rtl:-scale-x-100" />
        </button>
      </div>
      <table ref={gridRef} role="grid" aria-labelledby={headingId} className="border-collapse">
        <thead>
          <tr>
            {weekdays.map((weekday) => (
              <th key={weekday.weekday} scope="col" abbr={weekday.long} className="size-10 p-0 text-xs font-medium text-muted-foreground">
                {weekday.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {calendarWeeks(cells).map((week) => (
            <tr key={week[0]?.iso}>
              {week.map((cell) => {
                if (cell.outside && !showOutsideDays) return <td key={cell.iso} className="size-10 p-0" />;
                const isSelected = isSameDate(cell.date, selected);
                const isToday = isSameDate(cell.date, today);
                const disabled = isDisabled(cell.date);
                return (
                  <td key={cell.iso} aria-selected={isSelected} className="p-0 text-center">
                    <button
                      type="button"
                      data-date={cell.iso}
                      tabIndex={isSameDate(cell.date, tabStop) ? 0 : -1}
                      aria-label={formatFullDate(cell.date, locale)}
                      aria-current={isToday ? 'date' : undefined}
                      aria-disabled={disabled || undefined}
                      onClick={() => select(cell.date)}
                      onKeyDown={(event) => onDayKeyDown(event, cell.date)}
                      onFocus={() => setFocused(cell.date)}
                      className={cn(
                        'inline-flex size-10 items-center justify-center rounded-md text-sm tabular-nums transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring',
                        cell.outside && 'text-muted-foreground',
                        isToday && !isSelected && 'font-semibold underline decoration-2 underline-offset-4',
                        isSelected && 'bg-primary text-primary-foreground hover:bg-primary hover:text-primary-foreground',
                        disabled && 'cursor-not-allowed text-muted-foreground line-through opacity-60 hover:bg-transparent',
                      )}
                    >
                      {formatDayNumber(cell.date, locale)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
