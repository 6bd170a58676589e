/**
 * How Fieldwork writes a date, the one way for every screen, mail and stored sentence (issue 28
 * §12: there were three): in English US style, month first — "Nov 28, 2026", "Nov 28, 2026, 7:54 PM",
 * "Nov 28", "Sat, Nov 28", "7:54 PM" — and in the other languages their own way ("28.11.2026").
 * In the language given, else the current one (src/shared/i18n.ts: the page's; on the API server
 * English unless a call gives the person's). In the browser's time zone unless one is given (the
 * server gives UTC, or the person's zone); a calendar day (`YYYY-MM-DD`) is written as it is,
 * whatever the zone. Zod-free, React-free: browser and server alike.
 */
import { currentLanguage } from './i18n.ts';
import { INTL_LOCALES, type Language } from './languages.ts';

type Style = 'date' | 'dateTime' | 'day' | 'weekdayDay' | 'time' | 'dateTimeZone';

const OPTIONS: Readonly<Record<Style, Intl.DateTimeFormatOptions>> = {
  date: { dateStyle: 'medium' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  day: { month: 'short', day: 'numeric' },
  weekdayDay: { weekday: 'short', month: 'short', day: 'numeric' },
  time: { timeStyle: 'short' },
  dateTimeZone: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
};

/**
 * Made on first use and kept, per style and zone: each formatter costs a few milliseconds to build
 * and holds ICU objects in native memory (a reminder sweep or a bulk approval writes hundreds).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: Style, timeZone: string | undefined, language: Language): Intl.DateTimeFormat {
  const key = `${language} ${style} ${timeZone ?? ''}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(INTL_LOCALES[language], timeZone ? { ...OPTIONS[style], timeZone } : OPTIONS[style]);
    formatters.set(key, made);
  }
  return made;
}

function format(style: Style, value: Date | string, timeZone: string | undefined, language: Language | undefined): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : formatter(style, timeZone, language ?? currentLanguage()).format(date);
}

/** "Nov 28, 2026" ('' for no valid date). */
export const formatDate = (value: Date | string, timeZone?: string, language?: Language): string => format('date', value, timeZone, language);

/** "Nov 28, 2026, 7:54 PM". */
export const formatDateTime = (value: Date | string, timeZone?: string, language?: Language): string => format('dateTime', value, timeZone, language);

/** "Nov 28, 2026, 7:54 PM UTC": with the zone named, for a mail (its reader may be anywhere; the mail passes its reader's language). */
export const formatDateTimeWithZone = (value: Date | string, timeZone: string, language?: Language): string =>
  format('dateTimeZone', value, timeZone, language);

/** "Nov 28": a day in a short sentence or on a chart's axis. */
export const formatShortDay = (value: Date | string, timeZone?: string, language?: Language): string => format('day', value, timeZone, language);

/** "Sat, Nov 28". */
export const formatWeekdayDay = (value: Date | string, timeZone?: string, language?: Language): string => format('weekdayDay', value, timeZone, language);

/** "7:54 PM". */
export const formatTime = (value: Date | string, timeZone?: string, language?: Language): string => format('time', value, timeZone, language);

/** A calendar day `YYYY-MM-DD` as written, whatever the time zone ("Nov 28, 2026"); anything else as it is. */
export function formatCalendarDay(day: string, language?: Language): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  return format('date', `${day}T12:00:00Z`, 'UTC', language) || day;
}
