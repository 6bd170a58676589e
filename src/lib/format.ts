/** Dates and devices as the account screens show them (the page's language, the user's time zone). */
import { formatDate } from '../shared/dates.ts';
import { m, currentLanguage } from '../shared/i18n.ts';
import type { Language } from '../shared/languages.ts';
import { BROWSER_NAMES, describeUserAgent, SYSTEM_NAMES, UNKNOWN_DEVICE, type DeviceDescription } from '../shared/user-agent.ts';

/** The one date formatter (src/shared/dates.ts): "Nov 28, 2026", "Nov 28, 2026, 7:54 PM". */
export { formatDate, formatDateTime } from '../shared/dates.ts';

/**
 * A value made on first use: Intl formatters cost a few milliseconds each to build (their locale
 * data), which a module should not spend at load, before the page has anything to show.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** One relative-time format per language, made on first use. */
const relativeFormats = new Map<Language, Intl.RelativeTimeFormat>();

function relative(): Intl.RelativeTimeFormat {
  const language = currentLanguage();
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    relativeFormats.set(language, format);
  }
  return format;
}

function parse(value: string): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "just now", "5 minutes ago", "yesterday", … (in the page's language). */
export function formatRelative(value: string, now = Date.now()): string {
  const date = parse(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return m.shell_time_just_now();
  if (abs < 3600) return relative().format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative().format(Math.round(seconds / 3600), 'hour');
  if (abs < 86400 * 30) return relative().format(Math.round(seconds / 86400), 'day');
  return formatDate(date);
}

export type { DeviceDescription } from '../shared/user-agent.ts';

/**
 * A readable "Browser on System" from a user-agent string, in the page's language: the server's
 * reading (`src/shared/user-agent.ts`, whose English words the API and mails use), its two
 * sentences said as messages (browser and system names are names).
 */
export function describeDevice(userAgent: string | null | undefined): DeviceDescription {
  const described = describeUserAgent(userAgent);
  if (described.label === UNKNOWN_DEVICE) return { ...described, label: m.common_device_unknown() };
  const [browser, system, ...rest] = described.label.split(' on ');
  if (browser && system && rest.length === 0 && BROWSER_NAMES.has(browser) && SYSTEM_NAMES.has(system))
    return { ...described, label: m.common_device_browser_on_system({ browser, system }) };
  return described;
}
