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

/** A readable "Browser on System" from a user-agent string: the server's words too (`src/shared/user-agent.ts`). */
export { describeUserAgent as describeDevice, type DeviceDescription } from '../shared/user-agent.ts';
