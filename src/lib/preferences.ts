/**
 * The participant's mail preferences in words, as the account overview sums them up, and a
 * person's preferences as staff read them on their page. Pure and zod-free, unit-tested.
 */
import { MAIL_PREFERENCE_KEYS } from '../shared/notifications.ts';
import { isElevated, type Role } from '../shared/roles.ts';
import { utcOffsetLabel } from '../shared/time-zone.ts';

/**
 * What the account overview says of email notifications: "Off" (the master switch), "On" (every
 * kind on; never set counts as on), "On for 3 of 5 kinds", or "On, every kind off".
 */
export function mailSummary(
  preferences: { emailNotifications: boolean } & Partial<Record<(typeof MAIL_PREFERENCE_KEYS)[keyof typeof MAIL_PREFERENCE_KEYS], boolean>>,
): string {
  if (!preferences.emailNotifications) return 'Off';
  const kinds = Object.values(MAIL_PREFERENCE_KEYS);
  const on = kinds.filter((key) => preferences[key] !== false).length;
  if (on === kinds.length) return 'On';
  return on === 0 ? 'On, every kind off' : `On for ${on} of ${kinds.length} kinds`;
}

const LANGUAGE_WORDS: Readonly<Record<string, string>> = { en: 'English' };
const COLOR_MODE_WORDS: Readonly<Record<string, string>> = { system: 'Same as the device', light: 'Light', dark: 'Dark' };

/**
 * A person's stored preferences (only what they changed is stored) as labelled words for staff
 * (`/admin/users/{id}`): email notifications as `mailSummary` says them, the review digest for
 * moderators and admins, the language, the time zone with its offset now, the colour mode. What
 * was never set reads as its default.
 */
export function preferenceRows(preferences: Record<string, unknown>, role: Role, now: Date = new Date()): { term: string; value: string }[] {
  const flag = (key: string, fallback: boolean): boolean => (typeof preferences[key] === 'boolean' ? (preferences[key] as boolean) : fallback);
  const text = (key: string): string | null => (typeof preferences[key] === 'string' && preferences[key] !== '' ? (preferences[key] as string) : null);
  const mails = Object.fromEntries(Object.values(MAIL_PREFERENCE_KEYS).map((key) => [key, flag(key, true)]));
  const language = text('language') ?? 'en';
  const colorMode = text('colorMode') ?? 'system';
  const timeZone = text('timeZone');
  return [
    { term: 'Email notifications', value: mailSummary({ emailNotifications: flag('emailNotifications', true), ...mails }) },
    ...(isElevated(role) ? [{ term: 'Review digest', value: flag('mailReviewDigest', false) ? 'On' : 'Off' }] : []),
    { term: 'Language', value: LANGUAGE_WORDS[language] ?? language },
    { term: 'Time zone', value: timeZone ? `${timeZone.replace(/_/g, ' ')} (${utcOffsetLabel(timeZone, now)})` : 'Not set yet' },
    { term: 'Colour mode', value: COLOR_MODE_WORDS[colorMode] ?? colorMode },
  ];
}
