/** Dates and devices as the account screens show them (English, the user's time zone). */
import { formatDate } from '../shared/dates.ts';

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

const relative = onFirstUse(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));

function parse(value: string): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "just now", "5 minutes ago", "yesterday", … */
export function formatRelative(value: string, now = Date.now()): string {
  const date = parse(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return relative().format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative().format(Math.round(seconds / 3600), 'hour');
  if (abs < 86400 * 30) return relative().format(Math.round(seconds / 86400), 'day');
  return formatDate(date);
}

export interface DeviceDescription {
  label: string;
  mobile: boolean;
}

/** A readable "Browser on System" from a user-agent string. */
export function describeDevice(userAgent: string | null): DeviceDescription {
  if (!userAgent) return { label: 'Unknown device', mobile: false };
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS/.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS|Chromium/.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const system = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  const mobile = /Mobile|Android|iPhone|iPad|iPod/.test(ua);
  if (browser && system) return { label: `${browser} on ${system}`, mobile };
  if (browser || system) return { label: browser ?? system ?? 'Unknown device', mobile };
  return { label: ua.length > 60 ? `${ua.slice(0, 57)}…` : ua, mobile };
}
